import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { createAdapter } from '../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../repository-adapters/repository-adapter.js';
import {
  compareCopies,
  seedCollection,
  type SeededCollection,
} from '../../test/support/copies/copy-collection.js';
import { embeddedRepository, type CopySite } from '../../test/support/copies/copy-sites.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { createView } from '../../test/support/search/index-jobs.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Issue 32 end to end through the API: a COPY job (the real copy engine, src/copies/) from this app's
 * embedded repository in Fedora 4 mode to another app's in Fedora 6 mode, each a FEDORA view curated by
 * one curator: the dry run's numbers in the PREVIEWED message, the apply (every resource, triple and
 * binary compared), the report as JSON and CSV, and the undo.
 */

interface Job {
  id: number;
  state: string;
  dryRun: boolean;
  message: string | null;
  progress: { total: number; done: number; changed: number; failed: number };
}
interface Row {
  sourceUri: string;
  targetUri: string;
  kind: string;
  digestCheck: string | null;
  outcome: string;
}

let t: TestApp;
let source: EmbeddedView;
let sourceAdapter: RepositoryAdapter;
let target: CopySite & { t: TestApp };
let targetViewId: number;
let curator: { id: number; username: string; token: string };
let curatorName: string;

interface LedgerEvent {
  contextUri: string;
  jobId: number;
  username: string;
}
const byUri = (a: LedgerEvent, b: LedgerEvent) => a.contextUri.localeCompare(b.contextUri);

/** The target view's ledger events of `action` (read as the administrator), by IRI. */
async function ledgerOf(action: string): Promise<LedgerEvent[]> {
  const events = body(
    await sendJson(t.app, 'GET', `/audit?repositoryViewId=${targetViewId}&action=${action}`),
  ).payload['ArrayList<AuditEvent>'] as LedgerEvent[];
  return events.map(({ contextUri, jobId, username }) => ({ contextUri, jobId, username })).sort(byUri);
}

async function curatedBy(viewId: number, ids: number[]): Promise<void> {
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${viewId}`)).payload.RepositoryView;
  const response = await sendJson(t.app, 'PUT', '/repository-view', {
    ...(view as object),
    password: null,
    curators: ids.map((id) => ({ id })),
  });
  if (body(response).meta.status !== 'SUCCESS') throw new Error(response.body);
}

function as(method: 'GET' | 'POST', url: string, payload?: object) {
  return sendJson(t.app, method, url, payload, { token: curator.token });
}

async function until(id: number, states: readonly string[]): Promise<Job> {
  for (let i = 0; i < 1200; i++) {
    const job = body(await as('GET', `/curation-job/${id}`)).payload.CurationJob as Job;
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

beforeAll(async () => {
  [t, target] = await Promise.all([
    buildTestApp({ repositoryDialect: 'FEDORA_4', searchIndexNewViews: false }),
    embeddedRepository('FEDORA_6'),
  ]);
  source = await listenWithEmbeddedView(t, 'Fedora 4 source');
  const credentials = resolveRepositoryCredentials(t.config);
  sourceAdapter = createAdapter({
    type: 'FEDORA',
    rootUri: source.rootUri,
    username: credentials.username,
    password: credentials.password,
    dialect: 'FEDORA_4',
  });
  const targetCredentials = resolveRepositoryCredentials(target.t.config);
  targetViewId = await createView(t, {
    type: 'FEDORA',
    name: 'Fedora 6 target',
    rootUri: target.rootUri,
    username: targetCredentials.username,
    password: targetCredentials.password,
  });
  curator = await createUser(t, 'ROLE_CURATOR');
  curatorName = curator.username;
  await curatedBy(source.viewId, [curator.id]);
  await curatedBy(targetViewId, [curator.id]);
}, 60_000);

afterAll(async () => {
  await Promise.all([t.close(), target.close()]);
});

describe('COPY job from Fedora 4 mode to Fedora 6 mode through the API', () => {
  let collection: SeededCollection;
  let into: string;
  let jobId: number;
  const copyOf = (uri: string) => uri.replace(collection.uri, `${into}/letters`);

  it('previews the dry run with its numbers, writing nothing', async () => {
    collection = await seedCollection(sourceAdapter, source.rootUri, 'letters');
    into = await target.adapter.createChild(target.rootUri, [], undefined, { name: 'into' });
    const created = body(
      await as('POST', '/curation-job', {
        kind: 'COPY',
        repositoryViewId: source.viewId,
        contextUri: collection.uri,
        scope: 'SUBTREE',
        targetRepositoryViewId: targetViewId,
        targetContextUri: 'into',
      }),
    );
    expect(created.meta.status, JSON.stringify(created)).toBe('SUCCESS');
    const job = created.payload.CurationJob as Job & { targetContextUri: string };
    expect(job).toMatchObject({ dryRun: true, targetContextUri: into });
    jobId = job.id;
    const previewed = await until(jobId, ['PREVIEWED', 'FAILED']);
    expect(previewed.state, previewed.message ?? '').toBe('PREVIEWED');
    expect(previewed.message).toBe(
      `Would copy 6 resources (4 containers, 2 binaries, ${collection.bytes} bytes)`,
    );
    expect(previewed.progress).toMatchObject({ total: 6, done: 6, failed: 0 });
    expect((await target.adapter.describe(into)).children).toEqual([]);
  });

  it('applies: every resource, triple and binary arrives, and the report says so (JSON and CSV)', async () => {
    expect(body(await as('POST', `/curation-job/${jobId}/apply`)).meta.status).toBe('SUCCESS');
    const applied = await until(jobId, ['APPLIED', 'FAILED']);
    expect(applied.state, applied.message ?? '').toBe('APPLIED');
    expect(applied.message).toContain(
      `Copied 6 resources (${collection.bytes} bytes, 2 binaries verified on arrival); 0 failed`,
    );
    expect(applied.message).toContain('versions are not copied');
    expect(applied.progress).toEqual({ total: 6, done: 6, changed: 6, failed: 0 });
    expect(await compareCopies(sourceAdapter, target.adapter, collection, copyOf)).toEqual([]);
    // The ledger (DECISIONS.md §14): each copy is a job.apply event of the target view, as the curator.
    expect(await ledgerOf('job.apply')).toEqual(
      collection.resources
        .map((uri) => ({ contextUri: copyOf(uri), jobId, username: curatorName }))
        .sort(byUri),
    );

    const report = body(await as('GET', `/curation-job/${jobId}/report`)).payload[
      'ArrayList<CopyResult>'
    ] as Row[];
    expect(report[0]?.sourceUri).toBe(collection.uri);
    expect(report.map((row) => row.sourceUri).sort()).toEqual([...collection.resources].sort());
    expect(report.every((row) => row.outcome === 'COPIED' && row.targetUri === copyOf(row.sourceUri))).toBe(
      true,
    );
    expect(report.filter((row) => row.kind === 'BINARY').map((row) => row.digestCheck)).toEqual([
      'MATCH',
      'MATCH',
    ]);
    const page = body(await as('GET', `/curation-job/${jobId}/report?offset=2&limit=2`)).payload[
      'ArrayList<CopyResult>'
    ] as Row[];
    expect(page).toEqual(report.slice(2, 4));

    const csv = await t.app.inject({
      method: 'GET',
      url: `/curation-job/${jobId}/report?format=csv`,
      headers: { authorization: `Bearer ${curator.token}` },
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('sourceUri,targetUri,kind,bytes,digestAlgorithm,digestCheck,outcome,error');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1)).toHaveLength(6);
    expect(lines.filter((line) => line.includes(',BINARY,') && line.endsWith(',MATCH,COPIED,'))).toHaveLength(
      2,
    );
  });

  it('undoes: what the apply created is gone from the target', async () => {
    expect(body(await as('POST', `/curation-job/${jobId}/undo`)).meta.status).toBe('SUCCESS');
    const undone = await until(jobId, ['UNDONE', 'FAILED']);
    expect(undone.state, undone.message ?? '').toBe('UNDONE');
    expect((await target.adapter.describe(into)).children).toEqual([]);
    expect((await ledgerOf('job.undo')).map((event) => event.contextUri)).toEqual(
      collection.resources.map(copyOf).sort(),
    );
    const report = body(await as('GET', `/curation-job/${jobId}/report`)).payload[
      'ArrayList<CopyResult>'
    ] as Row[];
    expect(report.every((row) => row.outcome === 'REMOVED')).toBe(true);
  });
});
