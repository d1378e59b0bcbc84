import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnvironment } from './support/child-environment.js';
import { createTestDatabase, testDialect, type TestDatabase } from './support/test-database.js';

/**
 * The real process over real HTTP: start-up on the configured database, structured logs with request
 * ids, and a graceful shutdown that lets an in-flight request finish.
 */
let dataDir: string;
let database: TestDatabase;

function environment(): NodeJS.ProcessEnv {
  return childEnvironment(dataDir, database);
}

interface Running {
  child: ChildProcess;
  port: number;
  logs: string[];
  exited: Promise<number | null>;
}

async function start(): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: environment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no start-up line; logs:\n${logs.join('')}`));
    }, 20_000);
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
  });
  return { child, port, logs, exited };
}

function request(
  port: number,
  method: string,
  url: string,
  payload?: string,
  token?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const req = http.request({ port, method, path: url, host: '127.0.0.1', headers }, (res) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: data });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function signIn(port: number, password: string): Promise<string> {
  const response = await request(
    port,
    'POST',
    '/auth/login',
    JSON.stringify({ username: 'admin', password }),
  );
  const parsed = JSON.parse(response.body) as {
    meta: { status: string };
    payload: { AuthToken?: { token: string } };
  };
  expect(parsed.meta.status).toBe('SUCCESS');
  return parsed.payload.AuthToken?.token ?? '';
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-process-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`the service process on ${testDialect}`, () => {
  it('serves, logs with request ids, finishes an in-flight request on SIGTERM and keeps its data', async () => {
    const first = await start();
    const health = await request(first.port, 'GET', '/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ meta: { status: 'SUCCESS' } });
    if (testDialect === 'sqlite') expect(fs.existsSync(path.join(dataDir, 'scriptorium.sqlite'))).toBe(true);

    // First start: the administrator is created with a generated password, printed once.
    const generated = /generated password: (\S+) /.exec(first.logs.join(''))?.[1];
    expect(generated).toBeDefined();
    const token = await signIn(first.port, generated ?? '');

    // Begin a request, signal, then finish the body: the request must still be answered.
    const payload = JSON.stringify({ gloss: 'Title', field: 'title', required: true });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          port: first.port,
          method: 'POST',
          path: '/internal/metadata',
          host: '127.0.0.1',
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(payload)),
            authorization: `Bearer ${token}`,
          },
        },
        (res) => {
          let data = '';
          res.on('data', (chunk: Buffer) => (data += chunk.toString()));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body: data });
          });
        },
      );
      req.on('error', reject);
      req.write(payload.slice(0, 10));
      setTimeout(() => {
        first.child.kill('SIGTERM');
        setTimeout(() => req.end(payload.slice(10)), 300);
      }, 200);
    });
    const inFlight = await answered;
    expect(inFlight.status).toBe(200);
    expect(JSON.parse(inFlight.body)).toMatchObject({ meta: { status: 'SUCCESS' } });
    expect(await first.exited).toBe(0);
    expect(first.logs.join('')).toContain('closed cleanly');
    expect(first.logs.join('')).toMatch(/"reqId":"[0-9a-f-]{36}"/);

    // Second start: the administrator is kept as it was, and the first session is still valid.
    const second = await start();
    expect(second.logs.join('')).not.toContain('Created administrator');
    await signIn(second.port, generated ?? '');
    const list = await request(second.port, 'GET', '/internal/metadata', undefined, token);
    expect(JSON.parse(list.body)).toMatchObject({
      payload: { 'ArrayList<InternalMetadata>': [{ field: 'title', required: true }] },
    });
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });

  it('refuses to start with a configuration problem, naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...environment(), PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be an integer');
  });
});
