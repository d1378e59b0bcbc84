import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pgBossSchemaFor } from '../src/curation-jobs/runner/pg-boss-queue.js';
import { childEnvironment } from './support/child-environment.js';
import { ensureDatabase } from './support/global-setup.js';
import { TEST_POSTGRES_URL, testDialect, type TestDatabase } from './support/test-database.js';

/**
 * Issue 12: on PostgreSQL two instances share one job queue (pg-boss), and killing the one that runs a job
 * loses nothing. Two real service processes on one PostgreSQL schema, a short lease, one request at a time
 * per job; the repository is the run's Community Solid Server, so it outlives both. A MAPPING preview of
 * 150 records is started; once some progress is recorded, the process holding the job's lease is killed
 * with SIGKILL (no shutdown of any kind); the other one's recovery sweep finds the expired lease and
 * finishes the job: exactly 150 items, each with its change, none twice. The survivor then applies it.
 *
 * PostgreSQL in both passes (as the pg-boss queue's own tests): there is no SQLite counterpart, since on
 * SQLite jobs run in the process that owns the file.
 */
const RECORDS = 150;
const DATE = 'http://purl.org/dc/terms/date';
const TITLE = 'http://purl.org/dc/terms/title';
const PASSWORD = `Pw-${randomBytes(9).toString('base64url')}`;
const run = /^[0-9a-f]{8}$/.test(process.env.SCRIPTORIUM_TEST_RUN ?? '')
  ? process.env.SCRIPTORIUM_TEST_RUN!
  : 'adhoc000';
// Named like the suite's schemas, so the PostgreSQL pass's teardown drops it (and pg-boss's beside it).
const schema = `test_${run}_${randomBytes(6).toString('hex')}`;
const database: TestDatabase = {
  config: { kind: 'postgres', url: TEST_POSTGRES_URL, schema },
  drop: () => Promise.resolve(),
};
const sql = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 });
const dirs: string[] = [];
const started: Instance[] = [];

interface Instance {
  readonly child: ChildProcess;
  readonly port: number;
  readonly logs: string[];
  readonly exited: Promise<unknown>;
}

interface Envelope {
  meta: { status: string; message: string | null };
  payload: Record<string, unknown>;
}

interface Job {
  id: number;
  state: string;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}

interface Change {
  contextUri: string;
  removed: { subject: string; predicate: string; object: string }[];
  added: { subject: string; predicate: string; object: string }[];
  error: string | null;
}

/** One service process on the shared schema, with its own data directory; answers once it listens. */
async function startInstance(): Promise<Instance> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-jobs-processes-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: childEnvironment(dataDir, database, {
      SCRIPTORIUM_ADMIN_PASSWORD: PASSWORD,
      // Both decrypt the views' credentials; no embedded repository (the records live on CSS).
      SCRIPTORIUM_SECRET: 'two-processes-share-this-secret',
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'false',
      // The shortest lease the configuration allows: a dead runner's job is taken up ~3 s later.
      SCRIPTORIUM_JOB_LEASE_SECONDS: '3',
      // One request at a time toward the repository, so the job runs long enough to be cut short.
      SCRIPTORIUM_JOB_CONCURRENCY: '1',
      // The view is the whole shared Community Solid Server: no INDEX job walking every suite's resources.
      SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS: 'false',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no start-up line; logs:\n${logs.join('')}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      const match = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(logs.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening; logs:\n${logs.join('')}`));
    });
  });
  const instance = { child, port, logs, exited };
  started.push(instance);
  return instance;
}

async function api(
  instance: Instance,
  method: string,
  url: string,
  token: string | undefined,
  payload?: unknown,
): Promise<Envelope> {
  const response = await fetch(`http://127.0.0.1:${instance.port}${url}`, {
    method,
    headers: {
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  return (await response.json()) as Envelope;
}

async function ok(
  instance: Instance,
  method: string,
  url: string,
  token: string | undefined,
  payload?: unknown,
): Promise<Record<string, unknown>> {
  const envelope = await api(instance, method, url, token, payload);
  expect(envelope.meta.status, `${method} ${url}: ${envelope.meta.message}`).toBe('SUCCESS');
  return envelope.payload;
}

/** A bare request to CSS that must succeed. */
async function css(method: string, url: string, headers: Record<string, string>, payload: string) {
  const response = await fetch(url, { method, headers, body: payload });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
}

/**
 * A container of `RECORDS` records on CSS, each with a title and an American date (made with PUTs, whose
 * `<>` is the resource itself; CSS keeps a container's triples in its `.meta`, so they go in with a PATCH,
 * as the LDP adapter writes them). Answers each record's IRI and its date before and after the mapping.
 */
async function seed(root: string): Promise<{ uri: string; records: Map<string, [string, string]> }> {
  const container = { link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"' };
  const make = async (uri: string, turtle: string) => {
    await css('PUT', uri, { ...container, 'content-type': 'text/turtle' }, '');
    await css(
      'PATCH',
      `${uri}.meta`,
      { 'content-type': 'application/sparql-update' },
      `INSERT DATA { ${turtle} }`,
    );
  };
  const uri = `${root}jobs-two-processes-${randomUUID()}/`;
  await make(uri, `<${uri}> <${TITLE}> "Two processes" .`);
  const records = new Map<string, [string, string]>();
  const indexes = Array.from({ length: RECORDS }, (_, i) => i);
  // Eight at a time: fast, and gentle on the CSS the other test files share.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = indexes.shift(); i !== undefined; i = indexes.shift()) {
        const day = String((i % 28) + 1).padStart(2, '0');
        const record = `${uri}record-${i + 1}/`;
        await make(
          record,
          `<${record}> <${TITLE}> "Record ${i + 1}" . <${record}> <${DATE}> "03/${day}/2001" .`,
        );
        records.set(record, [`"03/${day}/2001"`, `"2001-03-${day}"`]);
      }
    }),
  );
  return { uri, records };
}

async function until(
  instance: Instance,
  token: string,
  id: number,
  done: (job: Job) => boolean,
  what: string,
): Promise<Job> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = (await ok(instance, 'GET', `/curation-job/${id}`, token)).CurationJob as Job;
    if (done(job)) return job;
    if (['FAILED', 'CANCELLED'].includes(job.state))
      throw new Error(`job ${id} ended ${job.state}: ${job.message}`);
    if (Date.now() > deadline) throw new Error(`job ${id} never ${what}: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits until the job's runner has recorded more than ten items; answers the lease owner, whose instance id
 * (`host:pid:suffix`) names its process.
 */
async function runningJob(id: number): Promise<{ owner: string; ownerPid: number }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await sql.query<{ state: string; owner: string | null; items: number }>(
      `select state, lease_owner as owner,
              (select count(*)::int from ${schema}.curation_job_items where job_id = $1) as items
       from ${schema}.curation_jobs where id = $1`,
      [id],
    );
    const job = rows[0];
    if (job?.owner != null && job.items > 10) {
      expect(job.state).toBe('RUNNING');
      return { owner: job.owner, ownerPid: Number(/^[^:]*:(\d+):/.exec(job.owner)?.[1]) };
    }
    if (Date.now() > deadline) throw new Error(`job ${id} never got under way: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  await ensureDatabase();
  await sql.query(`create schema ${schema}`);
});

afterAll(async () => {
  for (const instance of started) {
    if (instance.child.exitCode === null && instance.child.signalCode === null) {
      instance.child.kill('SIGKILL');
      await instance.exited;
    }
  }
  // The PostgreSQL pass drops its run's schemas at the end (dropping one while another file migrates
  // would upset Kysely's table listing); in the SQLite pass no other file uses PostgreSQL.
  if (testDialect === 'sqlite') {
    await sql.query(`drop schema if exists ${pgBossSchemaFor(schema)} cascade`);
    await sql.query(`drop schema if exists ${schema} cascade`);
  }
  await sql.end();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('curation jobs on two service processes sharing one PostgreSQL database', () => {
  it('finishes the job of the process killed mid-run on the other one, losing and repeating nothing', async () => {
    // One after the other: the first migrates the schema and creates the administrator.
    const first = await startInstance();
    const second = await startInstance();
    const token = (
      (await ok(first, 'POST', '/auth/login', undefined, { username: 'admin', password: PASSWORD }))
        .AuthToken as { token: string }
    ).token;

    const root = inject('cssBaseUrl');
    const schemas = (await ok(first, 'GET', '/schema', token))['ArrayList<Schema>'] as {
      id: number;
      abbreviation: string;
    }[];
    const view = (
      await ok(first, 'POST', '/repository-view', token, {
        type: 'LDP',
        name: 'Two processes (CSS)',
        rootUri: root,
        schemas: schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => ({ id: s.id })),
      })
    ).RepositoryView as { id: number };
    const operator = Object.values(
      await ok(first, 'POST', '/operators', token, {
        type: 'DATE_NORMALIZATION_OP',
        name: 'ISO dates',
        field: 'dcterms:date',
        value: 'yyyy-MM-dd',
      }),
    )[0] as { id: number };
    const collection = await seed(root);

    const created = (
      await ok(first, 'POST', '/curation-job', token, {
        repositoryViewId: view.id,
        contextUri: collection.uri,
        scope: 'CHILDREN',
        kind: 'MAPPING',
        operators: [operator.id],
      })
    ).CurationJob as Job;
    // The job's items go to the database every 250 ms (its counters only once a second, with the lease):
    // the earliest sign that the run is under way, which leaves most of it to be cut short.
    const underWay = await runningJob(created.id);
    const victim = [first, second].find((instance) => instance.child.pid === underWay.ownerPid);
    const survivor = [first, second].find((instance) => instance !== victim);
    expect(victim, `lease owner ${underWay.owner}`).toBeDefined();
    victim!.child.kill('SIGKILL');
    await victim!.exited;
    // The kill must have cut the run short, or this test would prove nothing.
    const atKill = (await ok(survivor!, 'GET', `/curation-job/${created.id}`, token)).CurationJob as Job;
    expect(atKill.state, JSON.stringify(atKill)).toBe('RUNNING');
    expect(atKill.progress.done).toBeLessThan(RECORDS);

    const previewed = await until(
      survivor!,
      token,
      created.id,
      (job) => job.state === 'PREVIEWED',
      'previewed',
    );
    expect(previewed.progress).toEqual({ total: RECORDS, done: RECORDS, changed: RECORDS, failed: 0 });
    const { rows: counts } = await sql.query<{ items: number; uris: number }>(
      `select (select count(*)::int from ${schema}.curation_job_items where job_id = $1) as items,
              (select count(distinct context_uri)::int from ${schema}.curation_job_items where job_id = $1) as uris`,
      [created.id],
    );
    expect(counts[0]).toEqual({ items: RECORDS, uris: RECORDS });

    const changes = (
      await ok(survivor!, 'GET', `/curation-job/${created.id}/changes?offset=0&limit=1000`, token)
    )['ArrayList<ResourceChange>'] as Change[];
    expect(changes).toHaveLength(RECORDS);
    expect(new Set(changes.map((change) => change.contextUri))).toEqual(new Set(collection.records.keys()));
    for (const change of changes) {
      const [before, after] = collection.records.get(change.contextUri)!;
      expect(change.error).toBeNull();
      expect(change.removed).toEqual([{ subject: change.contextUri, predicate: DATE, object: before }]);
      expect(change.added).toEqual([{ subject: change.contextUri, predicate: DATE, object: after }]);
    }

    // The survivor applies it; a few records read back through it carry the new date, and only it.
    await ok(survivor!, 'POST', `/curation-job/${created.id}/apply`, token);
    await until(survivor!, token, created.id, (job) => job.state === 'APPLIED', 'applied');
    const sample = [...collection.records.entries()].filter((_, i) => i % 37 === 0);
    for (const [record, [, after]] of sample) {
      const context = (
        await ok(
          survivor!,
          'GET',
          `/repository-view-context/LDP/${view.id}?contextUri=${encodeURIComponent(record)}`,
          token,
        )
      ).RepositoryViewContext as { metadata: { predicate: string; object: string }[] };
      expect(context.metadata.filter((m) => m.predicate === DATE).map((m) => m.object)).toEqual([after]);
    }

    survivor!.child.kill('SIGTERM');
    await survivor!.exited;
  }, 180_000);
});
