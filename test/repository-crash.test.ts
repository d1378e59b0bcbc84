import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  TEST_POSTGRES_URL,
  testDialect,
  type TestDatabase,
} from './support/test-database.js';

/**
 * Crash safety of the embedded repository with the real process: SIGKILL in the middle of a stream of
 * uploads and PATCHes (and of one upload still being streamed), restart, and every acknowledged write
 * is there, every binary passes fixity, no temporary file is left.
 */
const PASSWORD = 'crash-test-password';
const AUTH = `Basic ${Buffer.from(`fedoraAdmin:${PASSWORD}`).toString('base64')}`;
let dataDir: string;
let database: TestDatabase;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-crash-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SCRIPTORIUM_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
    SCRIPTORIUM_REPOSITORY_PASSWORD: PASSWORD,
  };
  delete env.DATABASE_URL;
  if (database.config.kind === 'postgres') {
    const url = new URL(TEST_POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${database.config.schema ?? 'public'}`);
    env.DATABASE_URL = url.toString();
  }
  return env;
}

async function start(): Promise<{ child: ChildProcess; port: number; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: environment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let logs = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no start-up line; logs:\n${logs}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      logs += chunk.toString();
      const match = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(logs);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  });
  return { child, port, exited };
}

const agent = new http.Agent({ keepAlive: false });

function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
) {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path: url, agent, headers: { authorization: AUTH, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe(`crash safety of the embedded repository (${testDialect})`, () => {
  it('keeps every acknowledged upload and PATCH across a SIGKILL, with fixity intact and no temporary files', async () => {
    const first = await start();
    expect((await request(first.port, 'PUT', '/rest/crash')).status).toBe(201);
    const binaries = new Map<string, string>();
    const titles: string[] = [];
    let stop = false;

    const uploader = async (worker: number) => {
      for (let n = 0; !stop; n++) {
        const data = randomBytes(32 * 1024 + Math.floor(Math.random() * 128 * 1024));
        const name = `bin-${worker}-${n}`;
        try {
          const response = await request(
            first.port,
            'PUT',
            `/rest/crash/${name}`,
            { 'content-type': 'application/octet-stream' },
            data,
          );
          if (response.status === 201) binaries.set(name, sha256(data));
        } catch {
          return; // the process is gone
        }
      }
    };
    const patcher = async (worker: number) => {
      for (let n = 0; !stop; n++) {
        const title = `title-${worker}-${n}`;
        try {
          const response = await request(
            first.port,
            'PATCH',
            '/rest/crash',
            { 'content-type': 'application/sparql-update' },
            `INSERT DATA { <> <http://purl.org/dc/terms/title> "${title}" }`,
          );
          if (response.status === 204) titles.push(title);
        } catch {
          return;
        }
      }
    };
    // One upload that is still streaming when the process dies: its temporary file must not survive.
    const slow = http.request({
      host: '127.0.0.1',
      port: first.port,
      method: 'PUT',
      path: '/rest/crash/slow',
      agent,
      headers: {
        authorization: AUTH,
        'content-type': 'application/octet-stream',
        'content-length': String(8 * 1024 * 1024),
      },
    });
    slow.on('error', () => undefined);
    slow.write(randomBytes(1024 * 1024));

    const workers = [uploader(1), uploader(2), patcher(1), patcher(2)];
    const deadline = Date.now() + 15_000;
    while (binaries.size + titles.length < 40 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    first.child.kill('SIGKILL');
    await first.exited;
    stop = true;
    await Promise.all(workers);
    expect(binaries.size).toBeGreaterThan(0);
    expect(titles.length).toBeGreaterThan(0);

    // The upload cut off mid-stream left its temporary file behind; start-up must remove it.
    expect(
      fs.readdirSync(path.join(dataDir, 'binaries')).filter((name) => name.endsWith('.tmp')).length,
    ).toBeGreaterThan(0);
    const second = await start();
    try {
      const temporary = fs
        .readdirSync(path.join(dataDir, 'binaries'))
        .filter((name) => name.endsWith('.tmp'));
      expect(temporary).toEqual([]);
      const container = (
        await request(second.port, 'GET', '/rest/crash', { accept: 'application/n-triples' })
      ).body.toString();
      for (const title of titles) expect(container, title).toContain(`"${title}"`);
      for (const [name, digest] of binaries) {
        const got = await request(second.port, 'GET', `/rest/crash/${name}`);
        expect(got.status, name).toBe(200);
        expect(sha256(got.body), name).toBe(digest);
        const fixity = await request(second.port, 'GET', `/rest/crash/${name}/fcr:fixity`, {
          accept: 'application/n-triples',
        });
        expect(fixity.body.toString(), name).toContain('"SUCCESS"');
      }
      expect((await request(second.port, 'GET', '/rest/crash/slow')).status).toBe(404);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 90_000);
});
