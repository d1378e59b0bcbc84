import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '../../test/support/binary-stores/s3-stand-in.js';
import { getJob, settle, type CopyJob } from '../../test/support/copies/copy-jobs.js';
import { freePort, ServiceApi } from '../../test/support/copies/service-process.js';
import { filesUnder, fixityReport, Instance, sha256 } from '../../test/support/scale-out/instances.js';
import { startSlowProxy, type SlowProxy } from '../../test/support/scale-out/slow-proxy.js';
import {
  createTestDatabase,
  TEST_POSTGRES_URL,
  testDialect,
  type TestDatabase,
} from '../../test/support/test-database.js';

/**
 * Issue 33's "Done when" (DECISIONS.md §17): two real service processes on ONE PostgreSQL schema and ONE
 * bucket of an S3 stand-in (s3rver), each with a data directory of its own, as two hosts behind a load
 * balancer would run. Through real HTTP: a binary uploaded through one is downloaded, ranged and
 * fixity-checked through the other, and neither keeps its bytes on its own disk; a repository
 * transaction begun on one is written to and committed through the other; a curation job runs to the
 * end while the other instance is killed, and one whose instance is killed mid-apply is finished by the
 * other, every record written exactly once.
 *
 * PostgreSQL only: two instances share records only through a database server (test/support/
 * database-suites.ts keeps this file out of the SQLite pass).
 */
if (testDialect !== 'postgres') throw new Error('the scale-out test runs on PostgreSQL only');

const ADMIN_PASSWORD = `Pw-${randomBytes(9).toString('base64url')}`;
const REPOSITORY_PASSWORD = randomBytes(18).toString('base64url');
const AUTHORIZATION = `Basic ${Buffer.from(`fedoraAdmin:${REPOSITORY_PASSWORD}`).toString('base64')}`;
const BINARY_BYTES = 20 * 1024 * 1024 + 12_345; // three multipart parts of the store's 8 MiB, the last short
const RECORDS = 80;
const DATE = 'http://purl.org/dc/terms/date';
const TITLE = 'http://purl.org/dc/terms/title';
/** Each request to the repository through the proxy waits this long: the job runs for seconds, not ms. */
const PROXY_DELAY_MS = 25;

let database: TestDatabase;
let schema: string;
let standIn: S3StandIn;
let bucket: string;
let proxy: SlowProxy;
let a: Instance;
let b: Instance;
const sql = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 });
const run = randomUUID().slice(0, 8);

beforeAll(async () => {
  database = await createTestDatabase();
  cleanups.push(() => database.drop());
  if (database.config.kind !== 'postgres') throw new Error('PostgreSQL only');
  schema = database.config.schema ?? 'public';
  standIn = await startS3StandIn();
  cleanups.push(async () => {
    await standIn.stop();
    fs.rmSync(standIn.directory, { recursive: true, force: true });
  });
  bucket = await standIn.bucket();
  const shared = {
    ...standIn.env(bucket),
    SCRIPTORIUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Both decrypt the views' credentials and verify each other's tokens.
    SCRIPTORIUM_SECRET: 'scale-out-instances-share-this-secret',
    SCRIPTORIUM_REPOSITORY_PASSWORD: REPOSITORY_PASSWORD,
    // A dead instance's job is taken up ~3 s after its lease was last renewed.
    SCRIPTORIUM_JOB_LEASE_SECONDS: '3',
    SCRIPTORIUM_JOB_CONCURRENCY: '1',
    SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS: 'false',
  };
  const instance = async (name: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `scriptorium-scale-${name}-`));
    cleanups.push(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    return new Instance(name, await freePort(), dataDir, database, shared, AUTHORIZATION);
  };
  a = await instance('A');
  b = await instance('B');
  cleanups.push(
    () => a.kill(),
    () => b.kill(),
  );
  // One after the other: the first migrates the schema and creates the administrator.
  await a.start();
  await b.start();
  proxy = await startSlowProxy(a.url, PROXY_DELAY_MS);
  cleanups.push(() => proxy.close());
}, 120_000);

/** What afterAll undoes, in reverse order, whichever step of beforeAll got so far. */
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await sql.end();
});

describe('two instances on one PostgreSQL database and one S3 bucket', () => {
  it('serves a binary uploaded through one from the other (bytes, range, fixity); neither keeps it on disk', async () => {
    const bytes = randomBytes(BINARY_BYTES);
    const digest = sha256(bytes);
    const binary = `scale-${run}/scan.tif`;
    expect((await a.rest('PUT', `scale-${run}`, { 'content-type': 'text/turtle' }, '')).status).toBe(201);
    const uploaded = await a.rest(
      'PUT',
      binary,
      { 'content-type': 'image/tiff', digest: `sha-256=${Buffer.from(digest, 'hex').toString('base64')}` },
      bytes,
    );
    expect(uploaded.status, await uploaded.text()).toBe(201);

    const downloaded = await b.rest('GET', binary, {});
    expect(downloaded.status).toBe(200);
    const got = Buffer.from(await downloaded.arrayBuffer());
    expect(got.length).toBe(BINARY_BYTES);
    expect(sha256(got)).toBe(digest);

    // A range across the first part boundary of the multipart upload.
    const start = 8 * 1024 * 1024 - 100;
    const end = start + 999;
    const ranged = await b.rest('GET', binary, { range: `bytes=${start}-${end}` });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes ${start}-${end}/${BINARY_BYTES}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(start, end + 1))).toBe(true);

    const fixity = await b.rest('GET', `${binary}/fcr:fixity`, { accept: 'text/turtle' });
    expect(fixity.status).toBe(200);
    const report = fixityReport(await fixity.text(), `${b.url}/rest/${binary}`);
    expect(report.outcome).toEqual(['SUCCESS']);
    expect(report.digests).toContain(`urn:sha-256:${digest}`);
    expect(report.size.map(Number)).toEqual([BINARY_BYTES]);

    // The bytes are in the bucket once, complete, under their content key; no upload left behind.
    const s3 = standIn.client();
    try {
      const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'binaries/' }));
      const keys = (listed.Contents ?? []).map((object) => object.Key ?? '');
      expect(keys.filter((key) => key.startsWith('binaries/.uploads/'))).toEqual([]);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/^binaries\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{128}$/);
      const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: keys[0] }));
      expect(head.ContentLength).toBe(BINARY_BYTES);
    } finally {
      s3.destroy();
    }
    // The problem the issue names is gone: neither instance's data directory holds content.
    for (const instance of [a, b]) {
      const files = filesUnder(instance.dataDir);
      expect(
        files.filter(({ file }) => /[0-9a-f]{128}/.test(file) || file.startsWith('binaries')),
        instance.name,
      ).toEqual([]);
      expect(
        files.reduce((sum, { size }) => sum + size, 0),
        instance.name,
      ).toBeLessThan(BINARY_BYTES);
    }
  }, 120_000);

  it('commits through one instance a repository transaction begun on the other', async () => {
    const holder = `scale-${run}-tx`;
    expect((await a.rest('PUT', holder, { 'content-type': 'text/turtle' }, '')).status).toBe(201);
    const begun = await a.rest('POST', 'fcr:tx', {});
    expect(begun.status).toBe(201);
    const id = String(begun.headers.get('location')).split('/').at(-1) ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const title = (text: string) => `<> <${TITLE}> "${text}" .`;
    const written = await b.rest(
      'PUT',
      `${holder}/inside`,
      { 'content-type': 'text/turtle', 'atomic-id': id },
      title('written through B'),
    );
    expect(written.status, await written.text()).toBe(201);
    // Inside the transaction through A too; outside it, on either, nothing yet.
    expect((await a.rest('GET', `${holder}/inside`, { 'atomic-id': id })).status).toBe(200);
    expect((await a.rest('GET', `${holder}/inside`, {})).status).toBe(404);
    expect((await b.rest('GET', `${holder}/inside`, {})).status).toBe(404);

    const committed = await b.rest('PUT', `fcr:tx/${id}`, {});
    expect(committed.status, await committed.text()).toBe(204);
    const seen = await a.rest('GET', `${holder}/inside`, { accept: 'application/n-triples' });
    expect(seen.status).toBe(200);
    expect(await seen.text()).toContain('"written through B"');
    // Committed once: the transaction is gone on both.
    expect((await a.rest('PUT', `fcr:tx/${id}`, {})).status).toBe(410);
  });

  it('runs a curation job to the end while the other instance is killed, and finishes one whose instance is killed mid-apply', async () => {
    const api = await ServiceApi.signIn(a.url, 'admin', ADMIN_PASSWORD);
    const view = await createView(api, `${proxy.url}/rest/`);
    const operator = Object.values(
      await api.ok('POST', '/operators', {
        type: 'DATE_NORMALIZATION_OP',
        name: 'ISO dates',
        field: 'dcterms:date',
        value: 'yyyy-MM-dd',
      }),
    )[0] as { id: number };
    const mapping = async (through: ServiceApi, container: string) =>
      (
        await through.ok('POST', '/curation-job', {
          repositoryViewId: view,
          contextUri: `${proxy.url}/rest/${container}`,
          scope: 'CHILDREN',
          kind: 'MAPPING',
          operators: [operator.id],
        })
      ).CurationJob as CopyJob;

    // 1. B is killed; a job started through A is previewed and applied by A alone.
    const first = await seedRecords(`scale-${run}-jobs-1`);
    await b.kill();
    const alone = await mapping(api, first);
    expect((await settle(api, alone.id, 'PREVIEWED')).progress).toEqual(allChanged);
    const before1 = await revisions(first);
    await api.ok('POST', `/curation-job/${alone.id}/apply`);
    expect((await settle(api, alone.id, 'APPLIED')).progress).toEqual(allChanged);
    await expectWrittenOnce(first, before1);

    // 2. B again (same port and data directory), now behind the proxy; a job's apply is started through A
    // and taken by A (B is paused until A holds the lease), A is killed mid-apply, and B finishes it.
    await b.start();
    proxy.target = b.url;
    const apiB = api.at(b.url);
    const second = await seedRecords(`scale-${run}-jobs-2`);
    const handedOver = await mapping(api, second);
    expect((await settle(api, handedOver.id, 'PREVIEWED')).progress).toEqual(allChanged);
    const before2 = await revisions(second);
    b.process?.child.kill('SIGSTOP');
    try {
      await api.ok('POST', `/curation-job/${handedOver.id}/apply`);
      await until(async () => (await leaseOwnerPid(handedOver.id)) === a.pid, 'A to hold the lease');
    } finally {
      b.process?.child.kill('SIGCONT');
    }
    // A has written part of the records (into its repository transaction, through the proxy to B).
    await until(async () => (await staged(second)) > 10, 'the apply to get under way');
    // A dies with its transaction open (the default timeout: 180 s). B takes the job over, rolls that
    // transaction back (its locks would fail B's fresh one until it expired) and applies in a new one.
    const left = await openTransactionOf(handedOver.id);
    await a.kill();
    expect(await staged(second), 'the kill must cut the apply short').toBeLessThan(RECORDS);
    const atKill = await getJob(apiB, handedOver.id);
    expect(atKill.state, JSON.stringify(atKill)).toBe('APPLYING');

    const finished = await settle(apiB, handedOver.id, 'APPLIED');
    expect(finished.progress).toEqual(allChanged);
    await expectWrittenOnce(second, before2);
    expect(await transactionState(left), "A's transaction").toBe('rolledback');
    expect(await liveTransactions()).toBe(0);
    const { rows } = await sql.query<{ items: number; uris: number }>(
      `select count(*)::int as items, count(distinct context_uri)::int as uris
       from ${schema}.curation_job_items where job_id = $1`,
      [handedOver.id],
    );
    expect(rows[0]).toEqual({ items: RECORDS, uris: RECORDS });
  }, 240_000);
});

const allChanged = { total: RECORDS, done: RECORDS, changed: RECORDS, failed: 0 };

async function createView(api: ServiceApi, rootUri: string): Promise<number> {
  const schemas = (await api.ok('GET', '/schema'))['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const created = await api.ok('POST', '/repository-view', {
    type: 'FEDORA',
    name: 'Behind the proxy',
    rootUri,
    username: 'fedoraAdmin',
    password: REPOSITORY_PASSWORD,
    schemas: schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => ({ id: s.id })),
  });
  return (created.RepositoryView as { id: number }).id;
}

/** A container of RECORDS records with American dates, written through the proxy; answers its path. */
async function seedRecords(container: string): Promise<string> {
  const put = async (resource: string, turtle: string) => {
    const response = await fetch(`${proxy.url}/rest/${resource}`, {
      method: 'PUT',
      headers: { authorization: AUTHORIZATION, 'content-type': 'text/turtle' },
      body: turtle,
    });
    if (response.status !== 201) throw new Error(`PUT ${resource}: ${response.status}`);
  };
  await put(container, `<> <${TITLE}> "Scale-out records" .`);
  const indexes = Array.from({ length: RECORDS }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = indexes.shift(); i !== undefined; i = indexes.shift()) {
        const day = String((i % 28) + 1).padStart(2, '0');
        await put(
          `${container}/record-${i + 1}`,
          `<> <${TITLE}> "Record ${i + 1}" ; <${DATE}> "03/${day}/2001" .`,
        );
      }
    }),
  );
  return container;
}

/** Each record's revision (the embedded repository's count of writes to it). */
async function revisions(container: string): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ path: string; revision: number }>(
    `select path, revision from ${schema}.repo_resources where parent = $1`,
    [container],
  );
  expect(rows).toHaveLength(RECORDS);
  return new Map(rows.map((row) => [row.path, row.revision]));
}

/** Every record written exactly once since `before`, now with its ISO date and only that. */
async function expectWrittenOnce(container: string, before: Map<string, number>): Promise<void> {
  const after = await revisions(container);
  expect([...after].filter(([record, revision]) => revision !== before.get(record)! + 1)).toEqual([]);
  for (const record of [...after.keys()].filter((_, i) => i % 20 === 0)) {
    const response = await fetch(`${proxy.url}/rest/${record}`, {
      headers: { authorization: AUTHORIZATION, accept: 'application/n-triples' },
    });
    const dates = (await response.text()).split('\n').filter((line) => line.includes(`<${DATE}>`));
    expect(dates, record).toHaveLength(1);
    expect(dates[0]).toMatch(/"2001-03-\d\d"/);
  }
}

/** The pid in the lease owner (`host:pid:suffix`) of the job, if it is leased. */
async function leaseOwnerPid(job: number): Promise<number | undefined> {
  const { rows } = await sql.query<{ owner: string | null }>(
    `select lease_owner as owner from ${schema}.curation_jobs where id = $1`,
    [job],
  );
  const pid = /^[^:]*:(\d+):/.exec(rows[0]?.owner ?? '')?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** The repository transaction a job's apply recorded as open. */
async function openTransactionOf(job: number): Promise<string> {
  const { rows } = await sql.query<{ tx: string | null }>(
    `select repository_tx as tx from ${schema}.curation_jobs where id = $1`,
    [job],
  );
  const tx = rows[0]?.tx;
  if (tx === null || tx === undefined) throw new Error(`job ${job} has no open repository transaction`);
  return tx;
}

/** open, committed, rolledback or expired. */
async function transactionState(tx: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ state: string }>(
    `select state from ${schema}.repo_transactions where id = $1`,
    [tx],
  );
  return rows[0]?.state;
}

/** Repository transactions open and not expired. */
async function liveTransactions(): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `select count(*)::int as n from ${schema}.repo_transactions where state = 'open' and expires > $1`,
    [Date.now()],
  );
  return rows[0]?.n ?? 0;
}

/** Writes staged in open repository transactions on the container's records. */
async function staged(container: string): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `select count(*)::int as n from ${schema}.repo_tx_staged s
     join ${schema}.repo_transactions t on t.id = s.tx_id
     where t.state = 'open' and s.path like $1`,
    [`${container}/%`],
  );
  return rows[0]?.n ?? 0;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
