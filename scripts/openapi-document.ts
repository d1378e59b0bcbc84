import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';

/**
 * The service's OpenAPI document, from a real app on a throwaway SQLite file (no port opened, no
 * embedded repository: its routes are outside the API). The workbench's types are generated from it.
 */
export async function openApiDocument(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-openapi-'));
  const config = {
    ...loadConfig({ SCRIPTORIUM_DATA_DIR: dataDir, SCRIPTORIUM_EMBEDDED_REPOSITORY: 'false' }),
    logLevel: 'silent' as const,
    adminPassword: 'openapi-document-only',
  };
  const app = await buildApp(config, { logger: false });
  try {
    await app.ready();
    return app.swagger();
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
