import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Readable, Transform } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { resolveRepositoryCredentials } from '../../../src/embedded-repository/credentials.js';
import { connectDatabase } from '../../../src/db/connect.js';
import { migrateToLatest } from '../../../src/db/migrations/migrate.js';
import { CopyItemStore } from '../../../src/copies/copy-items.store.js';
import type { CopyResult, CopySink } from '../../../src/copies/job-copies.js';
import type { JobTarget } from '../../../src/curation-jobs/work/job-work.js';
import { literal, namedNode } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';
import { isServerManaged } from '../../../src/linked-data/rdf/server-managed.js';
import { createAdapter } from '../../../src/repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import type { FedoraDialect } from '../../../src/shared/fedora-dialect.js';
import { createTestDatabase } from '../test-database.js';
import { buildTestApp, type TestApp } from '../test-app.js';

/** A repository a copy test reads from or writes to, as a job sees it. */
export interface CopySite {
  readonly target: JobTarget;
  readonly adapter: RepositoryAdapter;
  readonly rootUri: string;
  close(): Promise<void>;
}

/**
 * An app of its own (own database and data directory) whose embedded repository speaks `dialect`,
 * listening on a port, and a FEDORA adapter of it pinned to that dialect: two of these are two
 * repositories of different Fedora lines, as a migration sees them.
 */
export async function embeddedRepository(dialect: FedoraDialect): Promise<CopySite & { t: TestApp }> {
  const t = await buildTestApp({ repositoryDialect: dialect, searchIndexNewViews: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const credentials = resolveRepositoryCredentials(t.config);
  const rootUri = `http://127.0.0.1:${port}/rest/`;
  const adapter = createAdapter({
    type: 'FEDORA',
    rootUri,
    username: credentials.username,
    password: credentials.password,
    dialect,
  });
  return { t, adapter, rootUri, target: { adapter, schemas: [], rootUri }, close: () => t.close() };
}

/** A container of its own on the run's Community Solid Server, as an LDP view's root. */
export async function solidContainer(cssBaseUrl: string, name: string): Promise<CopySite> {
  const server = createAdapter({ type: 'LDP', rootUri: cssBaseUrl });
  const rootUri = await server.createChild(cssBaseUrl, [
    { predicate: `${NS.dcterms}title`, object: literal(name) },
  ]);
  const adapter = createAdapter({ type: 'LDP', rootUri });
  return {
    adapter,
    rootUri,
    target: { adapter, schemas: [], rootUri },
    close: () => server.delete(rootUri),
  };
}

/** A fresh migrated database and the copy plan store on it. */
export async function copyStore(): Promise<{ store: CopyItemStore; close: () => Promise<void> }> {
  const database = await createTestDatabase();
  const handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  return {
    store: new CopyItemStore(handle.db),
    close: async () => {
      await handle.db.destroy();
      await database.drop();
    },
  };
}

/** A copy sink in memory; `hang(key)`: after that write succeeds, the apply waits forever (a crash). */
export function memoryCopySink(options: { cancelled?: () => boolean; hang?: (key: string) => boolean } = {}) {
  const results: CopyResult[] = [];
  const acted: string[] = [];
  const sink: CopySink = {
    progressed: (result) => {
      results.push(result);
      return Promise.resolve();
    },
    cancelled: options.cancelled ?? (() => false),
    act: async (key, write) => {
      const answer = await write();
      acted.push(key);
      if (options.hang?.(key) === true) await new Promise<never>(() => undefined);
      return answer;
    },
  };
  return { sink, results, acted };
}

/** Every method of the adapter delegated to it, with some replaced. */
export function delegating(
  adapter: RepositoryAdapter,
  overrides: Partial<RepositoryAdapter>,
): RepositoryAdapter {
  return {
    kind: adapter.kind,
    describe: (...args) => adapter.describe(...args),
    createChild: (...args) => adapter.createChild(...args),
    updateTriples: (...args) => adapter.updateTriples(...args),
    runUpdate: (...args) => adapter.runUpdate(...args),
    uploadBinary: (...args) => adapter.uploadBinary(...args),
    exists: (...args) => adapter.exists(...args),
    downloadBinary: (...args) => adapter.downloadBinary(...args),
    delete: (...args) => adapter.delete(...args),
    ping: () => adapter.ping(),
    checkAuth: () => adapter.checkAuth(),
    checkContent: () => adapter.checkContent(),
    ...(adapter.transactions === undefined ? {} : { transactions: adapter.transactions }),
    ...(adapter.versions === undefined ? {} : { versions: adapter.versions }),
    ...(adapter.fixity === undefined ? {} : { fixity: adapter.fixity }),
    ...overrides,
  };
}

/**
 * A FAULTY target: delegates to a real adapter but flips one byte of every binary uploaded under a name
 * `corrupts` picks, as a bad network or disk would; a repository that is not told the digest (or does not
 * check it) stores and digests the damaged bytes.
 */
export function corruptingAdapter(
  adapter: RepositoryAdapter,
  corrupts: (name: string) => boolean,
  faults: { readonly dropsDigest?: boolean } = {},
) {
  return delegating(adapter, {
    uploadBinary: (parent, binary, tx, given) => {
      // `dropsDigest`: the upload's Digest is lost on the way, so the repository cannot refuse the bytes.
      const options =
        faults.dropsDigest === true && given !== undefined ? { ...given, digest: undefined } : given;
      if (options?.name === undefined || !corrupts(options.name))
        return adapter.uploadBinary(parent, binary, tx, options);
      let first = true;
      const flip = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          const out = Buffer.from(chunk);
          if (first && out.length > 0) {
            out[0] = (out[0] ?? 0) ^ 0xff;
            first = false;
          }
          done(null, out);
        },
      });
      binary.content.on('error', (error) => flip.destroy(error));
      return adapter.uploadBinary(parent, { ...binary, content: binary.content.pipe(flip) }, tx, options);
    },
  });
}

/** The adapter, counting named creations by IRI (a resumed apply must create nothing twice). */
export function countingCreations(adapter: RepositoryAdapter) {
  const created = new Map<string, number>();
  const count = (parent: string, name: string | undefined) => {
    const key = `${parent.replace(/\/$/u, '')}/${name ?? '?'}`;
    created.set(key, (created.get(key) ?? 0) + 1);
  };
  const wrapped = delegating(adapter, {
    createChild: async (parent, statements, tx, options) => {
      const uri = await adapter.createChild(parent, statements, tx, options);
      count(parent, options?.name);
      return uri;
    },
    uploadBinary: async (parent, binary, tx, options) => {
      const uri = await adapter.uploadBinary(parent, binary, tx, options);
      count(parent, options?.name);
      return uri;
    },
  });
  return { adapter: wrapped, created };
}

/** Bytes that differ from run to run, of `size`. */
export function someBytes(size: number, seed: string): Buffer {
  const out = Buffer.alloc(size);
  let block = createHash('sha512').update(seed).digest();
  for (let at = 0; at < size; at += block.length) {
    block.copy(out, at);
    block = createHash('sha512').update(block).digest();
  }
  return out;
}

export function bytesStream(bytes: Buffer): Readable {
  return Readable.from([bytes.subarray(0, bytes.length >> 1), bytes.subarray(bytes.length >> 1)]);
}

const SERVER_WRITTEN = new Set([`${NS.dcterms}modified`, 'http://www.w3.org/ns/ma-ont#format']);

/** A resource's user statements as lines (`<s> <p> o`), subjects and objects mapped by `iri`. */
export function userLines(
  quads: readonly Quad[],
  uri: string,
  iri: (value: string) => string = (v) => v,
): string[] {
  const trim = (value: string) => value.replace(/\/$/u, '').replace(/\/#/u, '#');
  const own = (value: string) => trim(value.split('#')[0] ?? value) === trim(uri);
  return quads
    .filter((q) => q.subject.termType === 'NamedNode' && own(q.subject.value))
    .filter((q) => !isServerManaged(q.predicate.value, q.object))
    .filter(
      (q) =>
        // What Community Solid Server writes itself: modification times, a binary's Content-Type.
        !SERVER_WRITTEN.has(q.predicate.value) &&
        !q.predicate.value.startsWith('http://www.w3.org/ns/posix/'),
    )
    .map((q) => {
      const object =
        q.object.termType === 'NamedNode'
          ? `<${trim(iri(q.object.value))}>`
          : q.object.termType === 'Literal'
            ? `"${q.object.value}"@${q.object.language}`
            : q.object.termType;
      return `<${trim(iri(q.subject.value))}> <${q.predicate.value}> ${object}`;
    })
    .sort();
}

/** SHA-256 of a binary's bytes as a repository serves them. */
export async function servedDigest(adapter: RepositoryAdapter, uri: string): Promise<string> {
  const { content } = await adapter.downloadBinary(uri);
  const hash = createHash('sha256');
  for await (const chunk of content) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const TITLE = `${NS.dc}title`;
export const RELATION = `${NS.dcterms}relation`;
export const iri = namedNode;
