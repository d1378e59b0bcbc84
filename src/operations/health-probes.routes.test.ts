import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '../../test/support/binary-stores/s3-stand-in.js';
import { startTcpProxy, type TcpProxy } from '../../test/support/operations/tcp-proxy.js';
import { body, buildTestApp, type TestApp } from '../../test/support/test-app.js';
import {
  createTestDatabase,
  TEST_POSTGRES_URL,
  testDialect,
  type TestDatabase,
} from '../../test/support/test-database.js';

/**
 * GET /health/live and GET /health/ready through the real app (DECISIONS.md §17): ready while every
 * dependency answers, 503 naming the one that does not (the S3 stand-in stopped; PostgreSQL behind a TCP
 * proxy the test cuts, the server itself untouched), ready again once it is back. Neither names a host.
 */
interface Readiness {
  checks: { name: string; ok: boolean }[];
  binaryStore: string | null;
}

async function ready(t: TestApp) {
  const response = await t.app.inject({ method: 'GET', url: '/health/ready' });
  const envelope = body(response);
  return {
    status: response.statusCode,
    message: envelope.meta.message,
    envelopeStatus: envelope.meta.status,
    readiness: envelope.payload.Readiness as Readiness,
    raw: response.body,
  };
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe(`health probes with the default local store (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('GET /health/live answers SUCCESS without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health/live' });
    expect(response.statusCode).toBe(200);
    expect(body(response).meta.status).toBe('SUCCESS');
  });

  it('GET /health/ready names every check, all up, and the store kind', async () => {
    const answer = await ready(t);
    expect(answer.status).toBe(200);
    expect(answer.envelopeStatus).toBe('SUCCESS');
    expect(answer.readiness).toEqual({
      checks: [
        { name: 'database', ok: true },
        { name: 'binaryStore', ok: true },
        { name: 'jobQueue', ok: true },
      ],
      binaryStore: 'local',
    });
  });

  it('GET /health is unchanged', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(body(response)).toEqual({
      meta: { status: 'SUCCESS', action: null, message: 'Service and database are up', id: null },
      payload: {},
    });
  });
});

describe(`readiness with binaries on S3 (${testDialect})`, () => {
  let s3: S3StandIn;
  let t: TestApp;
  const saved = { ...process.env };
  beforeAll(async () => {
    s3 = await startS3StandIn();
    const bucket = await s3.bucket();
    // The store takes its credentials from the AWS SDK's chain, as in production.
    Object.assign(process.env, s3.env(bucket));
    t = await buildTestApp({ binaryStore: { ...s3.config(bucket), timeoutMs: 500 } });
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
    process.env = saved;
  });

  it('is 503 naming binaryStore while the S3 stand-in is stopped, and ready again once it is back', async () => {
    const up = await ready(t);
    expect(up.status).toBe(200);
    expect(up.readiness.binaryStore).toBe('s3');
    await s3.stop();
    const down = await ready(t);
    expect(down.status).toBe(503);
    expect(down.envelopeStatus).toBe('ERROR');
    expect(down.message).toBe('Not ready: binaryStore not answering');
    expect(down.readiness.checks).toEqual([
      { name: 'database', ok: true },
      { name: 'binaryStore', ok: false },
      { name: 'jobQueue', ok: true },
    ]);
    expect(down.raw).not.toContain('127.0.0.1');
    expect(down.raw).not.toContain(String(s3.port));
    expect(down.raw).not.toContain('S3RVER');
    await s3.start();
    expect((await ready(t)).status).toBe(200);
  });
});

describe.runIf(testDialect === 'postgres')('readiness while PostgreSQL is unreachable', () => {
  let proxy: TcpProxy;
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    const target = new URL(TEST_POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    database = await createTestDatabase();
    if (database.config.kind !== 'postgres') throw new Error('PostgreSQL expected');
    const proxied = new URL(database.config.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    t = await buildTestApp({ database: { ...database.config, url: proxied.toString() } });
  });
  afterAll(async () => {
    await proxy.restore();
    await t.close();
    await proxy.close();
    await database.drop();
  });

  it('is 503 naming the database while the proxy is cut, and ready again once it is restored', async () => {
    expect((await ready(t)).status).toBe(200);
    await proxy.cut();
    const down = await ready(t);
    expect(down.status).toBe(503);
    expect(down.message).toMatch(/^Not ready: database(, jobQueue)? not answering$/);
    expect(down.readiness.checks.find((check) => check.name === 'database')).toEqual({
      name: 'database',
      ok: false,
    });
    expect(down.raw).not.toContain(String(proxy.port));
    expect(down.raw).not.toContain('scriptorium_test');
    // The liveness probe does not depend on the database.
    expect((await t.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    await proxy.restore();
    // The pools open new connections on their next queries.
    await until(
      () => ready(t),
      (answer) => answer.status === 200,
      'ready after the restore',
    );
  });
});
