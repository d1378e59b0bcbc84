import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { DataVersion } from '../../src/db/data-version.js';
import { PostgresChangeFeed } from '../../src/db/postgres-change-feed.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly config: Config;
  /** A token of the initial administrator; `sendJson` sends it unless told otherwise. */
  readonly adminToken: string;
  /**
   * Resolves once this app has heard of every change committed to its database so far: on SQLite at
   * once (its next request reads data_version), on PostgreSQL once the change notifications arrived.
   */
  changesSeen(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_ADMIN = { username: 'admin', password: 'test-admin-password' } as const;

/**
 * Config overrides for tests that count SQL statements or what a kept read saves: the search feed
 * (SCRIPTORIUM_SEARCH_FEED) runs statements of its own after repository writes, at moments of its own,
 * which would land in the counts, and its writes move the database's change signal (as every write of the
 * process does), dropping kept reads. The writes still queue their indexing (triggers), so nothing else
 * changes.
 */
export const WITHOUT_SEARCH_FEED = { searchFeed: false } as const satisfies Partial<Config>;

/** The token `sendJson` sends by default for each app. */
const defaultTokens = new WeakMap<FastifyInstance, string>();

/** A real app on a fresh database of the dialect under test; no port is opened. */
export async function buildTestApp(
  overrides: Partial<Config> = {},
  options: {
    beforeReady?: (app: FastifyInstance) => void;
    onQuery?: (sql: string) => void;
    events?: AppOptions['events'];
    /** COPY jobs' engine (test/support/copies/stand-in-copies.ts until src/copies/ has its own). */
    copies?: AppOptions['copies'];
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  // Every app gets a data directory of its own (the embedded repository keeps binaries and its password
  // there), removed on close unless the test chose the directory itself.
  const ownDataDir =
    overrides.dataDir === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-test-')) : undefined;
  const config: Config = {
    ...loadConfig({ SCRIPTORIUM_DATA_DIR: ownDataDir ?? path.join(os.tmpdir(), 'scriptorium-test') }),
    database: database.config,
    logLevel: 'silent',
    adminUsername: TEST_ADMIN.username,
    adminPassword: TEST_ADMIN.password,
    ...overrides,
    // A data directory the test chose holds the binaries too (the default store is `<dataDir>/binaries`).
    ...(overrides.dataDir !== undefined &&
      overrides.binaryStore === undefined && {
        binaryStore: { kind: 'local', directory: path.join(overrides.dataDir, 'binaries') },
      }),
  };
  let version: DataVersion | undefined;
  const app = await buildApp(config, {
    logger: false,
    onQuery: options.onQuery,
    events: options.events,
    ...(options.copies !== undefined && { copies: options.copies }),
    onDataVersion: (v) => (version = v),
  });
  options.beforeReady?.(app);
  const adminToken = await login(app, TEST_ADMIN.username, TEST_ADMIN.password);
  defaultTokens.set(app, adminToken);
  return {
    app,
    config,
    adminToken,
    changesSeen: async () => {
      // SQLite needs no wait: every request reads data_version afresh.
      if (version instanceof PostgresChangeFeed) await version.settled();
    },
    close: async () => {
      await app.close();
      await database.drop();
      if (ownDataDir !== undefined) fs.rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

export interface EnvelopeBody {
  meta: { status: string; action: null; message: string; id: null };
  payload: Record<string, unknown>;
}

/** Parses a response body as the envelope. */
export function body(response: LightMyRequestResponse): EnvelopeBody {
  return response.json<EnvelopeBody>();
}

/**
 * Sends a JSON request the way the interface's clients do, signed in as the app's administrator unless
 * `token` names another token (or null for an anonymous request).
 */
export function sendJson(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
  url: string,
  payload?: unknown,
  options: { token?: string | null } = {},
) {
  const token = options.token === undefined ? defaultTokens.get(app) : options.token;
  return app.inject({
    method,
    url,
    headers: {
      ...(payload === undefined ? {} : { 'content-type': 'application/json;charset=UTF-8' }),
      ...(token === null || token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

/** Signs in and returns the token; fails the test when sign-in does not succeed. */
export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const response = await sendJson(app, 'POST', '/auth/login', { username, password }, { token: null });
  const envelope = body(response);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(`login as ${username} failed: ${response.body}`);
  return (envelope.payload.AuthToken as { token: string }).token;
}

/** Creates a user with the given role (as the administrator) and returns their id and token. */
export async function createUser(
  t: TestApp,
  role: 'ROLE_ADMIN' | 'ROLE_CURATOR' | 'ROLE_USER',
  username = `${role.slice(5).toLowerCase()}-${String(Math.random()).slice(2, 8)}`,
): Promise<{ id: number; username: string; token: string }> {
  const password = 'a-long-password';
  const response = await sendJson(t.app, 'POST', '/user/create', {
    username,
    password,
    role,
    firstName: 'Test',
    lastName: 'User',
    email: username.includes('@') ? username : `${username}@example.org`,
  });
  const envelope = body(response);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(`creating ${username} failed: ${response.body}`);
  const id = (envelope.payload.User as { id: number }).id;
  return { id, username, token: await login(t.app, username, password) };
}
