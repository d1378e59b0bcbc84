import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn, type S3StandIn } from '../../test/support/binary-stores/s3-stand-in.js';
import { ready } from '../../test/support/operations/readiness.js';
import { body, buildTestApp, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * GET /health/live and GET /health/ready through the real app (DECISIONS.md §17): ready while every
 * dependency answers, 503 naming the one that does not (the S3 stand-in stopped; PostgreSQL in
 * readiness-database.test.ts), ready again once it is back. Neither names a host.
 */
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
