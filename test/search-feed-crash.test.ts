import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../src/config/config.js';
import { connectDatabase } from '../src/db/connect.js';
import type { Database } from '../src/db/database.js';
import { createSearchIndexStore } from '../src/search/index/search-index.store.js';
import { childEnvironment } from './support/child-environment.js';
import { eventually, findWord } from './support/search-feed.js';
import { createTestDatabase, testDialect, type TestDatabase } from './support/test-database.js';

/**
 * A write the service acknowledged but had not indexed when the process died is searchable after a
 * restart (issue 28: "no write missing from search"). The real service runs as a child process: once to
 * index its repository, once with its feed off (SCRIPTORIUM_SEARCH_FEED=off) to write and be killed with
 * SIGKILL, and once more with the feed on.
 */
const PASSWORD = 'search-feed-crash-password';
const AUTH = `Basic ${Buffer.from(`fedoraAdmin:${PASSWORD}`).toString('base64')}`;
const PUBLIC_URL = 'http://scriptorium.test';
let dataDir: string;
let database: TestDatabase;
let db: Kysely<Database>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-feed-crash-'));
  database = await createTestDatabase();
  const config: DatabaseConfig =
    database.config.kind === 'sqlite'
      ? { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') }
      : database.config;
  const connection = connectDatabase(config);
  await connection.listening;
  db = connection.db;
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Child {
  readonly child: ChildProcess;
  readonly port: number;
  readonly exited: Promise<unknown>;
}

async function start(feed: 'on' | 'off'): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: childEnvironment(dataDir, database, {
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_PASSWORD: PASSWORD,
      SCRIPTORIUM_PUBLIC_URL: PUBLIC_URL,
      SCRIPTORIUM_SEARCH_FEED: feed,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let logs = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no start-up line; logs:\n${logs}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      logs += chunk.toString();
      const match = /"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(logs);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  });
  return { child, port, exited };
}

function put(port: number, where: string, turtle: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'PUT',
        path: `/rest${where}`,
        // The repository names resources after the Host; the stored form (info:fedora/…) does not keep it.
        headers: { authorization: AUTH, 'content-type': 'text/turtle', host: 'scriptorium.test' },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          resolve(response.statusCode ?? 0);
        });
      },
    );
    request.on('error', reject);
    request.end(turtle);
  });
}

async function defaultView(): Promise<{ id: number; indexedAt: number | null } | undefined> {
  const row = await db
    .selectFrom('repository_views')
    .leftJoin('search_views', 'search_views.view_id', 'repository_views.id')
    .select(['repository_views.id as id', 'search_views.indexed_at as indexedAt'])
    .where('repository_views.name', '=', 'Embedded repository')
    .executeTakeFirst();
  return row;
}

describe(`the search feed across a crash (${testDialect})`, () => {
  it('indexes after a restart the write that was queued but not indexed when the process was killed', async () => {
    const index = createSearchIndexStore(db, testDialect);
    // First start: the default view becomes embedded and its repository is indexed.
    const first = await start('on');
    expect(await put(first.port, '/before', '<> <http://purl.org/dc/terms/title> "ocelot" .')).toBe(201);
    expect(await eventually(async () => (await defaultView())?.indexedAt != null, 15_000)).toBe(true);
    const view = await defaultView();
    if (view?.indexedAt == null) throw new Error('the default view was not indexed');
    expect(await eventually(async () => (await findWord(index, view.id, 'ocelot')).length === 1)).toBe(true);
    first.child.kill('SIGTERM');
    await first.exited;

    // The feed off: the write is acknowledged and queued, never indexed; then the process dies.
    const second = await start('off');
    expect(await put(second.port, '/crash-write', '<> <http://purl.org/dc/terms/title> "axolotl" .')).toBe(
      201,
    );
    const queued = await db.selectFrom('search_pending').select('path').execute();
    expect(queued.map((row) => row.path)).toContain('crash-write');
    second.child.kill('SIGKILL');
    await second.exited;
    expect(await findWord(index, view.id, 'axolotl')).toEqual([]);

    // Restarted with the feed on: the queue is drained; the view's first indexing is not redone.
    const third = await start('on');
    try {
      expect(await eventually(async () => (await findWord(index, view.id, 'axolotl')).length === 1)).toBe(
        true,
      );
      expect(await findWord(index, view.id, 'axolotl')).toEqual([`${PUBLIC_URL}/rest/crash-write`]);
      expect((await defaultView())?.indexedAt).toBe(view.indexedAt);
    } finally {
      third.child.kill('SIGTERM');
      await third.exited;
    }
  }, 120_000);
});
