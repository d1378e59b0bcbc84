import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig, type Config } from '../config/config.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly config: Config;
  close(): Promise<void>;
}

/** A real app on a fresh database of the dialect under test; no port is opened. */
export async function buildTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config: Config = {
    ...loadConfig({ SCRIPTORIUM_DATA_DIR: path.join(os.tmpdir(), 'scriptorium-test') }),
    database: database.config,
    logLevel: 'silent',
    ...overrides,
  };
  const app = await buildApp(config, { logger: false });
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await database.drop();
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

/** Sends a JSON request the way the interface's clients do. */
export function sendJson(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json;charset=UTF-8' },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}
