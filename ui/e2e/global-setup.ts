import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>`: the service under test, serving the workbench at /ui/. */
    baseUrl: string;
    adminPassword: string;
    /** The data directory (binaries live under it; a test may corrupt one on disk). */
    dataDir: string;
  }
}

const ADMIN_PASSWORD = 'workbench-e2e-admin-password';

/**
 * Builds the workbench into a private folder (never the shared dist/ui) and starts the real service on
 * SQLite with the embedded repository, on a free port, serving that build.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-ui-e2e-'));
  const uiDir = path.join(work, 'ui');
  const dataDir = path.join(work, 'data');
  const build = spawnSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'],
    {
      env: { ...process.env, SCRIPTORIUM_UI_OUT_DIR: uiDir },
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`the workbench did not build:\n${build.stdout}\n${build.stderr}`);

  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SCRIPTORIUM_DATA_DIR: dataDir,
    SCRIPTORIUM_ADMIN_PASSWORD: ADMIN_PASSWORD,
    SCRIPTORIUM_UI_DIR: uiDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseUrl, child, logs);

  project.provide('baseUrl', baseUrl);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(work, { recursive: true, force: true });
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(baseUrl: string, child: ChildProcess, logs: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited:\n${logs.join('')}`);
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the service did not answer /health in 60 s:\n${logs.join('')}`);
}
