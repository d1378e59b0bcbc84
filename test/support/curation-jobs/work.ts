import type { AddressInfo } from 'node:net';
import type { Quad } from '@rdfjs/types';
import { resolveRepositoryCredentials } from '../../../src/embedded-repository/credentials.js';
import { literal, namedNode, quad } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';
import type { RegexReplaceOperator } from '../../../src/operators/operator.js';
import { createAdapter } from '../../../src/repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import type { Schema } from '../../../src/schemas/schema.js';
import { buildTestApp, type TestApp } from '../test-app.js';
import type { RunItem, RunSink, StoredChange, WriteSink } from '../../../src/curation-jobs/work/job-work.js';

export const TITLE = `${NS.dc}title`;
export const DC_SCHEMA: Schema = {
  id: 1,
  name: 'Dublin Core',
  abbreviation: 'dc',
  namespace: NS.dc,
  properties: [{ uri: TITLE, label: 'Title' }],
};

/** dc:title "… draft …" → "… final …". */
export const DRAFT_TO_FINAL: RegexReplaceOperator = {
  id: 1,
  type: 'REGEX_REPLACE_OP',
  name: 'draft to final',
  field: 'dc:title',
  regex: 'draft',
  value: 'final',
};

/** A test app whose embedded repository answers on a port, and a FEDORA adapter of it (Fedora 6 spoken). */
export async function startEmbeddedRepository(): Promise<{
  t: TestApp;
  adapter: RepositoryAdapter;
  rootUri: string;
}> {
  const t = await buildTestApp({ repositoryDialect: 'FEDORA_6' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const credentials = resolveRepositoryCredentials(t.config);
  const rootUri = `http://127.0.0.1:${port}/rest/`;
  const adapter = createAdapter({
    type: 'FEDORA',
    rootUri,
    username: credentials.username,
    password: credentials.password,
    dialect: 'FEDORA_6',
  });
  return { t, adapter, rootUri };
}

/** The adapter, counting describes, fixity checks and writes, and the most requests of these at once. */
export function counting(adapter: RepositoryAdapter) {
  const counts = { described: [] as string[], checked: 0, writes: 0, inFlight: 0, maxInFlight: 0 };
  const tracked =
    <A extends [string, ...unknown[]], R>(call: (...args: A) => Promise<R>, count: (uri: string) => void) =>
    async (...args: A): Promise<R> => {
      count(args[0]);
      counts.inFlight += 1;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      try {
        return await call(...args);
      } finally {
        counts.inFlight -= 1;
      }
    };
  const fixity = adapter.fixity;
  const wrapped: RepositoryAdapter = {
    ...bound(adapter),
    describe: tracked(adapter.describe.bind(adapter), (uri) => {
      counts.described.push(uri);
    }),
    updateTriples: tracked(adapter.updateTriples.bind(adapter), () => {
      counts.writes += 1;
    }),
    ...(fixity === undefined
      ? {}
      : {
          fixity: {
            check: tracked(fixity.check.bind(fixity), () => {
              counts.checked += 1;
            }),
          },
        }),
  };
  return { adapter: wrapped, counts };
}

/** Every method of the adapter bound to it, and its facets, as a plain object. */
function bound(adapter: RepositoryAdapter): RepositoryAdapter {
  return {
    kind: adapter.kind,
    describe: adapter.describe.bind(adapter),
    createChild: adapter.createChild.bind(adapter),
    updateTriples: adapter.updateTriples.bind(adapter),
    runUpdate: adapter.runUpdate.bind(adapter),
    uploadBinary: adapter.uploadBinary.bind(adapter),
    downloadBinary: adapter.downloadBinary.bind(adapter),
    exists: adapter.exists.bind(adapter),
    delete: adapter.delete.bind(adapter),
    ping: adapter.ping.bind(adapter),
    checkAuth: adapter.checkAuth.bind(adapter),
    checkContent: adapter.checkContent.bind(adapter),
    ...(adapter.transactions === undefined ? {} : { transactions: adapter.transactions }),
    ...(adapter.versions === undefined ? {} : { versions: adapter.versions }),
    ...(adapter.fixity === undefined ? {} : { fixity: adapter.fixity }),
  };
}

/** A container with a dc:title under `parent`. */
export function titled(adapter: RepositoryAdapter, parent: string, title: string): Promise<string> {
  return adapter.createChild(parent, [{ predicate: TITLE, object: literal(title, 'en') }]);
}

/** The dc:title values of a resource. */
export async function titlesOf(adapter: RepositoryAdapter, uri: string): Promise<string[]> {
  const description = await adapter.describe(uri);
  return description.quads
    .filter((q) => q.subject.value === uri && q.predicate.value === TITLE)
    .map((q) => q.object.value);
}

/** Replaces a resource's title behind the job's back. */
export async function retitle(adapter: RepositoryAdapter, uri: string, from: string, to: string) {
  const t = (value: string): Quad => quad(namedNode(uri), namedNode(TITLE), literal(value, 'en'));
  await adapter.updateTriples(uri, [t(from)], [t(to)]);
}

/** A sink that keeps what a run records, in memory. */
export function memorySink(options: { done?: readonly string[]; cancelled?: () => boolean } = {}) {
  const items: RunItem[] = [];
  let found = 0;
  const done = new Set(options.done ?? []);
  const sink: RunSink = {
    isDone: (uri) => done.has(uri),
    found: (count) => {
      found += count;
    },
    record: (item) => {
      items.push(item);
      return Promise.resolve();
    },
    cancelled: options.cancelled ?? (() => false),
  };
  return { sink, items, found: () => found };
}

/** A write sink that keeps the resources it is told were written, and the batches marked as being written. */
export function memoryWriteSink(options: { cancelled?: () => boolean } = {}) {
  const written: string[] = [];
  const writing: string[][] = [];
  const notWritten: string[] = [];
  const created = new Map<string, string>();
  /** The metadata each created resource had right after its creation, by key (when it could be read). */
  const states = new Map<string, readonly Quad[]>();
  const sink: WriteSink = {
    created: (key, uri, state) => {
      created.set(key, uri);
      if (state !== undefined) states.set(key, state);
      return Promise.resolve();
    },
    writing: (uris) => {
      writing.push([...uris]);
      return Promise.resolve();
    },
    written: (uris) => {
      written.push(...uris);
      return Promise.resolve();
    },
    notWritten: (uris) => {
      notWritten.push(...uris);
      return Promise.resolve();
    },
    cancelled: options.cancelled ?? (() => false),
  };
  return { sink, written, writing, notWritten, created, states };
}

/** The stored change-set of a MAPPING run's items (only resources that change), forward or inverted. */
export function changesOf(items: readonly RunItem[], mode: 'APPLY' | 'UNDO'): StoredChange[] {
  return items.flatMap((item) => {
    if (item.kind !== 'MAPPING' || (item.removed.length === 0 && item.added.length === 0)) return [];
    return mode === 'APPLY'
      ? [{ contextUri: item.contextUri, etag: item.etag, remove: item.removed, add: item.added }]
      : [{ contextUri: item.contextUri, etag: null, remove: item.added, add: item.removed }];
  });
}
