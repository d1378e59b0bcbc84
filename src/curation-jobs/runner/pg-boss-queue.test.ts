import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../../../test/support/global-setup.js';
import { TEST_POSTGRES_URL, testDialect } from '../../../test/support/test-database.js';
import { CURATION_JOB_QUEUE, PgBossJobQueue, pgBossSchemaFor } from './pg-boss-queue.js';

/**
 * The PostgreSQL job queue, on the test PostgreSQL database in both passes: pg-boss has no SQLite
 * counterpart to run against, and the queue is the same whichever database the service's rows are in.
 * Outcomes are read from pg-boss's own job rows (completed, failed, still active) rather than timed.
 */
const run = /^[0-9a-f]{8}$/.test(process.env.SCRIPTORIUM_TEST_RUN ?? '')
  ? process.env.SCRIPTORIUM_TEST_RUN!
  : 'adhoc000';
const client = new pg.Pool({ connectionString: TEST_POSTGRES_URL, max: 1 });
let queues: PgBossJobQueue[] = [];
let warnings: string[] = [];
let serviceSchema = '';

/** A fresh service schema per test, so its queue is shared by this test's instances only. */
const newSchema = () => (serviceSchema = `test_${run}_${randomBytes(6).toString('hex')}`);

function queue(concurrency = 2): PgBossJobQueue {
  const made = new PgBossJobQueue({
    url: TEST_POSTGRES_URL,
    schema: serviceSchema,
    warn: (message) => warnings.push(message),
    concurrency,
  });
  queues.push(made);
  return made;
}

/** How many of this test's queued phases pg-boss holds in each state. */
async function states(): Promise<Record<string, number>> {
  const { rows } = await client.query<{ state: string; n: number }>(
    `select state, count(*)::int as n from ${pgBossSchemaFor(serviceSchema)}.job where name = $1 group by state`,
    [CURATION_JOB_QUEUE],
  );
  return Object.fromEntries(rows.map(({ state, n }) => [state, n]));
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: (() => void) | undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve: () => resolve?.() };
}

const poll = { timeout: 10_000, interval: 50 };

// The global setup makes sure of the test database in the PostgreSQL pass only.
beforeAll(ensureDatabase);

afterEach(async () => {
  await Promise.all(queues.map((q) => q.stop(0)));
  // The PostgreSQL pass drops every schema of its run at the end (dropping one while another test file
  // migrates would upset Kysely's table listing); the SQLite pass has no such teardown, and no other
  // file uses PostgreSQL then.
  if (testDialect === 'sqlite')
    await client.query(`drop schema if exists ${pgBossSchemaFor(serviceSchema)} cascade`);
  queues = [];
  warnings = [];
});

afterAll(async () => {
  await client.end();
});

describe('the pg-boss job queue', () => {
  it('hands each of ten queued ids to exactly one of two instances sharing the schema', async () => {
    newSchema();
    const [a, b] = [queue(), queue()];
    const taken: { by: string; id: number }[] = [];
    const gate = deferred();
    const handler = (by: string) => async (id: number) => {
      taken.push({ by, id });
      await gate.promise;
    };
    // Booting together: both install pg-boss's schema and the queue at once (pg-boss locks).
    await Promise.all([a.start(handler('a')), b.start(handler('b'))]);
    for (let id = 1; id <= 10; id++) await (id % 2 === 1 ? a : b).enqueue(id);
    // While the gate is shut each instance holds as many phases as it has slots (two), no more.
    await expect.poll(() => taken.map(({ by }) => by).sort(), poll).toEqual(['a', 'a', 'b', 'b']);
    gate.resolve();
    await expect.poll(states, poll).toEqual({ completed: 10 });
    // Completed rows are never handed out again: the ten deliveries are all there will be.
    expect(taken.map(({ id }) => id).sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(warnings).toEqual([]);
  });

  it('holds a delayed phase back for its delay while others run', async () => {
    newSchema();
    const q = queue();
    const order: number[] = [];
    let delayedAt = 0;
    await q.start((id) => {
      order.push(id);
      if (id === 1) delayedAt = Date.now();
      return Promise.resolve();
    });
    const queuedAt = Date.now();
    await q.enqueue(1, 1_500);
    await q.enqueue(2);
    await expect.poll(() => order, poll).toEqual([2, 1]);
    expect(delayedAt - queuedAt).toBeGreaterThanOrEqual(1_500);
    await expect.poll(states, poll).toEqual({ completed: 2 });
  });

  it('stops taking work but lets a phase in flight finish and records it', async () => {
    newSchema();
    const q = queue();
    const events: string[] = [];
    const started = deferred();
    await q.start(async (id) => {
      started.resolve();
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push(`handled ${id}`);
    });
    await q.enqueue(7);
    await started.promise;
    await q.stop(10_000);
    events.push('stopped');
    expect(events).toEqual(['handled 7', 'stopped']);
    expect(await states()).toEqual({ completed: 1 });
    await expect(q.enqueue(8)).rejects.toThrow('stopped');
  });

  it('waits no longer than the grace, leaving the unfinished phase to its lease', async () => {
    newSchema();
    const q = queue();
    const events: string[] = [];
    const started = deferred();
    const release = deferred();
    await q.start(async (id) => {
      started.resolve();
      await release.promise;
      events.push(`handled ${id}`);
    });
    await q.enqueue(9);
    await started.promise;
    await q.stop(200);
    events.push('stopped');
    release.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['stopped', 'handled 9']);
    // Not failed, not retried: the runner's lease decides what becomes of the job.
    expect(await states()).toEqual({ active: 1 });
    expect(warnings).toEqual([]);
  });

  it('tells a handle that throws through warn and does not retry it', async () => {
    newSchema();
    const q = queue();
    let calls = 0;
    await q.start((id) => {
      calls++;
      return Promise.reject(new Error(`no luck with ${id}`));
    });
    await q.enqueue(5);
    await expect.poll(states, poll).toEqual({ failed: 1 });
    const { rows } = await client.query<{ retry_count: number }>(
      `select retry_count from ${pgBossSchemaFor(serviceSchema)}.job where name = $1`,
      [CURATION_JOB_QUEUE],
    );
    expect(rows).toEqual([{ retry_count: 0 }]);
    expect(calls).toBe(1);
    expect(warnings).toEqual(['Job queue (pg-boss): curation job 5: no luck with 5']);
  });

  it('refuses a negative delay and a second start', async () => {
    newSchema();
    const q = queue();
    await expect(q.enqueue(1, -5)).rejects.toThrow('0 ms or more');
    await q.start(() => Promise.resolve());
    await expect(q.start(() => Promise.resolve())).rejects.toThrow('already started');
  });
});

describe('the pg-boss schema', () => {
  it('sits beside the service schema, or is pg-boss’s own when the service uses the default', () => {
    expect(pgBossSchemaFor('test_ab12cd34_0123456789ab')).toBe('test_ab12cd34_0123456789ab_pgboss');
    expect(pgBossSchemaFor(undefined)).toBe('pgboss');
    expect(() => pgBossSchemaFor('x'.repeat(50))).toThrow('at most 50');
    expect(() => pgBossSchemaFor('bad-name')).toThrow('letters, digits or underscores');
  });
});
