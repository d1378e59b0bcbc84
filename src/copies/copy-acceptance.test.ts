import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { createAdapter } from '../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../repository-adapters/repository-adapter.js';
import { childEnvironment } from '../../test/support/child-environment.js';
import { copyCollection } from '../../test/support/copies/collection.js';
import { compareTrees, countTree, expectedTargetUri } from '../../test/support/copies/compare-trees.js';
import { copyReport, settle, startCopy, type CopyJob } from '../../test/support/copies/copy-jobs.js';
import {
  freePort,
  ServiceApi,
  startServiceProcess,
  type ServiceProcess,
} from '../../test/support/copies/service-process.js';
import {
  expectOk,
  treePaths,
  writeTree,
  type RawRepository,
} from '../../test/support/copies/tree-fixture.js';
import { buildTestApp, type TestApp } from '../../test/support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';

/**
 * Issue 32's "Done when": a collection of nested containers, titles in English and German, internal links
 * between its members and binaries, in an embedded repository in Fedora 4 mode, is copied by COPY jobs
 * (a) to an embedded repository in Fedora 6 mode and (b) to Community Solid Server; the comparison walk
 * (test/support/copies/compare-trees.ts) then finds every resource, every user triple (internal IRIs
 * rewritten) and every binary's SHA-256 equal, with `prov:wasDerivedFrom` on each copy.
 *
 * The source repository and the job run in one service process (SCRIPTORIUM_REPOSITORY_DIALECT=FEDORA_4,
 * a port of the test's choosing). The copy to (a) is interrupted once: that process is killed with SIGKILL
 * mid-copy (no shutdown of any kind), and a fresh process on the same database, data directory and port
 * resumes the job (on SQLite at its start, on PostgreSQL when the dead lease has expired); the copy then
 * holds every resource exactly once (children counted per container, nothing extra). The Fedora 6 mode
 * repository is this test's own app. Both databases: the plan rows the resume relies on are the engine's
 * SQL, and the resume itself differs (the in-process queue at start-up; pg-boss and the lease sweep).
 */
const SERIES = 3;
const OBJECTS_PER_SERIES = 8;
const BINARY_BYTES = 256 * 1024;
const BINARIES = SERIES * OBJECTS_PER_SERIES;
const CONTAINERS = 1 + SERIES + SERIES * OBJECTS_PER_SERIES;
const TOTAL = CONTAINERS + BINARIES;
const ADMIN_PASSWORD = `Pw-${randomBytes(9).toString('base64url')}`;
const REPOSITORY_PASSWORD = randomBytes(18).toString('base64url');

let database: TestDatabase;
let dataDir: string;
let port: number;
let target: TestApp;
const processes: ServiceProcess[] = [];

function serviceEnvironment(): NodeJS.ProcessEnv {
  return childEnvironment(dataDir, database, {
    PORT: String(port),
    SCRIPTORIUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SCRIPTORIUM_SECRET: 'copy-acceptance-secret-kept-across-restarts',
    SCRIPTORIUM_REPOSITORY_DIALECT: 'FEDORA_4',
    SCRIPTORIUM_REPOSITORY_PASSWORD: REPOSITORY_PASSWORD,
    // A dead process's job is taken up ~3 s after its lease was last renewed.
    SCRIPTORIUM_JOB_LEASE_SECONDS: '3',
    // One request at a time toward each repository, so the copy runs long enough to be cut short.
    SCRIPTORIUM_JOB_CONCURRENCY: '1',
    // No INDEX job walking the whole shared Community Solid Server.
    SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS: 'false',
  });
}

async function startService(): Promise<ServiceProcess> {
  const started = await startServiceProcess(serviceEnvironment());
  processes.push(started);
  return started;
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-copy-acceptance-'));
  port = await freePort();
  target = await buildTestApp({ repositoryDialect: 'FEDORA_6' });
  await target.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  for (const running of processes) await running.kill();
  await target.close();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function createView(api: ServiceApi, body: Record<string, unknown>): Promise<number> {
  const schemas = (await api.ok('GET', '/schema'))['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const created = await api.ok('POST', '/repository-view', {
    ...body,
    schemas: schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => ({ id: s.id })),
  });
  return (created.RepositoryView as { id: number }).id;
}

/** An empty container to copy into. */
async function holder(repository: RawRepository, uri: string): Promise<string> {
  await expectOk(
    'PUT',
    uri,
    {
      ...repository.headers,
      'content-type': 'text/turtle',
      link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"',
    },
    '',
  );
  return uri;
}

/** How many resources the job's report says are copied so far. */
async function copiedSoFar(api: ServiceApi, id: number): Promise<number> {
  return (await copyReport(api, id)).filter((row) => row.outcome === 'COPIED').length;
}

function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

describe('issue 32: a collection copied from a Fedora 4 mode view to a Fedora 6 mode view and to CSS', () => {
  it('copies every resource, triple and binary, interrupted once and resumed without a duplicate', async () => {
    let service = await startService();
    let api = await ServiceApi.signIn(service.url, 'admin', ADMIN_PASSWORD);

    // The source: the collection in the service's own repository (Fedora 4 mode).
    const sourceRoot = `${service.url}/rest/`;
    const fedora4: RawRepository = { kind: 'FEDORA', headers: basic('fedoraAdmin', REPOSITORY_PASSWORD) };
    const run = randomUUID();
    const outside = await holder(fedora4, `${sourceRoot}outside-${run}`);
    const sourceHolder = await holder(fedora4, `${sourceRoot}estate-${run}`);
    const collection = copyCollection('Nachlass Brenner', {
      series: SERIES,
      objectsPerSeries: OBJECTS_PER_SERIES,
      binaryBytes: BINARY_BYTES,
      outside,
    });
    expect(treePaths(collection)).toHaveLength(TOTAL);
    const sourceUri = await writeTree(fedora4, sourceHolder, collection);
    const sourceView = await createView(api, {
      type: 'FEDORA',
      name: 'Fedora 4 mode (source)',
      rootUri: sourceRoot,
      username: 'fedoraAdmin',
      password: REPOSITORY_PASSWORD,
    });

    // (a) The target: this test's app, an embedded repository in Fedora 6 mode.
    const targetRoot = `http://127.0.0.1:${(target.app.server.address() as AddressInfo).port}/rest/`;
    const credentials = resolveRepositoryCredentials(target.config);
    const fedora6: RawRepository = {
      kind: 'FEDORA',
      headers: basic(credentials.username, credentials.password),
    };
    const fedora6Holder = await holder(fedora6, `${targetRoot}copies-${run}`);
    const fedora6View = await createView(api, {
      type: 'FEDORA',
      name: 'Fedora 6 mode (target)',
      rootUri: targetRoot,
      username: credentials.username,
      password: credentials.password,
    });
    const fedora6Adapter = createAdapter({ type: 'FEDORA', rootUri: targetRoot, ...credentials });

    // The dry run: the numbers, and nothing written.
    const created = await startCopy(api, {
      repositoryViewId: sourceView,
      contextUri: sourceUri,
      targetRepositoryViewId: fedora6View,
      targetContextUri: fedora6Holder,
      dryRun: true,
    });
    expect(created).toMatchObject({
      kind: 'COPY',
      targetRepositoryViewId: fedora6View,
      targetContextUri: fedora6Holder,
    });
    const previewed = await settle(api, created.id, 'PREVIEWED');
    expect(previewed.message).toMatch(
      new RegExp(
        `${TOTAL} resources \\(${CONTAINERS} containers, ${BINARIES} binaries, ${BINARIES * BINARY_BYTES} bytes\\)`,
      ),
    );
    expect((await fedora6Adapter.describe(fedora6Holder)).children).toEqual([]);

    // The apply, cut short: the process running it is killed once some resources are copied.
    await api.ok('POST', `/curation-job/${created.id}/apply`);
    const deadline = Date.now() + 60_000;
    while ((await copiedSoFar(api, created.id)) < 8) {
      if (Date.now() > deadline) throw new Error('the copy never got under way');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await service.kill('SIGKILL');
    const copiedAtKill = await countTree(
      fedora6Adapter,
      expectedTargetUri(fedora6Holder, sourceUri, [], 'FEDORA', false),
    );
    expect(copiedAtKill).toBeGreaterThanOrEqual(8);
    expect(copiedAtKill, 'the kill must cut the copy short').toBeLessThan(TOTAL);

    // A fresh process on the same database, data directory and port resumes the job.
    service = await startService();
    api = api.at(service.url);
    const applied = await settle(api, created.id, 'APPLIED');
    expect(applied.progress.failed).toBe(0);
    expect(applied.message).toMatch(/versions/i);
    await expectReport(api, applied, 'FEDORA');

    const sourceAdapter = createAdapter({
      type: 'FEDORA',
      rootUri: sourceRoot,
      username: 'fedoraAdmin',
      password: REPOSITORY_PASSWORD,
    });
    const toFedora6 = await compareTrees(
      { adapter: sourceAdapter, uri: sourceUri },
      { adapter: fedora6Adapter, uri: fedora6Holder },
    );
    expect(toFedora6.differences).toEqual([]);
    expect(toFedora6).toMatchObject({
      containers: CONTAINERS,
      binaries: BINARIES,
      bytes: BINARIES * BINARY_BYTES,
    });
    // No duplicate: the walk counted every container's children; the holder holds the one copy only.
    expect((await fedora6Adapter.describe(fedora6Holder)).children).toEqual([
      expectedTargetUri(fedora6Holder, sourceUri, [], 'FEDORA', false),
    ]);
    expect(await countTree(fedora6Adapter, fedora6Holder)).toBe(TOTAL + 1);

    // (b) Community Solid Server, applied at once by the fresh process.
    const cssRoot = inject('cssBaseUrl');
    const cssHolder = await holder({ kind: 'LDP', headers: {} }, `${cssRoot}copies-${run}/`);
    const cssView = await createView(api, {
      type: 'LDP',
      name: 'Community Solid Server (target)',
      rootUri: cssRoot,
    });
    const cssAdapter = createAdapter({ type: 'LDP', rootUri: cssRoot });
    const toCss = await startCopy(api, {
      repositoryViewId: sourceView,
      contextUri: sourceUri,
      targetRepositoryViewId: cssView,
      targetContextUri: cssHolder,
      dryRun: false,
    });
    const copiedToCss = await settle(api, toCss.id, 'APPLIED');
    expect(copiedToCss.progress.failed).toBe(0);
    await expectReport(api, copiedToCss, 'LDP');
    const onCss = await compareTrees(
      { adapter: sourceAdapter, uri: sourceUri },
      { adapter: cssAdapter, uri: cssHolder },
    );
    expect(onCss.differences).toEqual([]);
    expect(onCss).toMatchObject({
      containers: CONTAINERS,
      binaries: BINARIES,
      bytes: BINARIES * BINARY_BYTES,
    });
    expect(await countTree(cssAdapter, cssHolder)).toBe(TOTAL + 1);

    // The views were detected as what the repositories claim to be.
    const detected = async (id: number) =>
      ((await api.ok('GET', `/repository-view/${id}`)).RepositoryView as { detectedDialect: string | null })
        .detectedDialect;
    expect(await detected(sourceView)).toBe('FEDORA_4');
    expect(await detected(fedora6View)).toBe('FEDORA_6');
    await service.kill('SIGTERM');
  }, 300_000);
});

/** Every resource once in the report, copied, each binary verified on arrival. */
async function expectReport(api: ServiceApi, job: CopyJob, kind: RepositoryAdapter['kind']): Promise<void> {
  const rows = await copyReport(api, job.id);
  expect(rows).toHaveLength(TOTAL);
  expect(new Set(rows.map((row) => row.targetUri)).size).toBe(TOTAL);
  expect(rows.filter((row) => row.outcome !== 'COPIED')).toEqual([]);
  const binaries = rows.filter((row) => row.kind === 'BINARY');
  expect(binaries).toHaveLength(BINARIES);
  for (const row of binaries) {
    expect(row, kind).toMatchObject({ bytes: BINARY_BYTES, digestCheck: 'MATCH' });
    expect(row.digestAlgorithm).not.toBeNull();
  }
  // The same rows as CSV, in plan order.
  const csv = await api.text(`/curation-job/${job.id}/report?format=csv`);
  expect(csv.contentType).toMatch(/^text\/csv/);
  const lines = csv.body.trim().split(/\r?\n/);
  expect(lines[0]).toBe('sourceUri,targetUri,kind,bytes,digestAlgorithm,digestCheck,outcome,error');
  expect(lines.slice(1).map((line) => line.split(',').slice(0, 2))).toEqual(
    rows.map((row) => [row.sourceUri, row.targetUri]),
  );
}
