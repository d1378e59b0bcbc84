import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BinaryStoreConfig } from '../../../src/config/binary-store-config.js';
import type { Config } from '../../../src/config/config.js';
import { buildRepositoryApp, createContainer, repo } from '../repository-client.js';
import type { TestApp } from '../test-app.js';

/** A data directory of the test's own, removed by `removeAll`. */
const made: string[] = [];
export function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `scriptorium-${label}-`));
  made.push(dir);
  return dir;
}
export function removeAll(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** What the service configures for a data directory: its SQLite file and its local binaries. */
export function dataDirConfig(
  dataDir: string,
  binaryStore: BinaryStoreConfig = { kind: 'local', directory: path.join(dataDir, 'binaries') },
): Pick<Config, 'dataDir' | 'database' | 'binaryStore' | 'secret'> {
  return {
    dataDir,
    database: { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') },
    binaryStore,
    // The secret is generated into the data directory, as in production.
    secret: undefined,
  };
}

/**
 * A real app with the embedded repository on the SQLite file and binaries of `dataDir`, with the /load
 * container the numbered writes go into (created on a new data directory).
 */
export async function appOn(dataDir: string, binaryStore?: BinaryStoreConfig): Promise<TestApp> {
  const t = await buildRepositoryApp(dataDirConfig(dataDir, binaryStore));
  if ((await repo(t.app, 'GET', '/load')).statusCode === 404) await createContainer(t.app, '/load');
  return t;
}

/** The bytes of write `n`: different for every n, sizes from 1 KB to about 61 KB. */
export function bytesOf(n: number): Buffer {
  return Buffer.alloc(1000 + ((n * 7919) % 60_000), `write ${n};`);
}

/** Write `n`: a binary at /rest/load/<n> (one request, so the resource and its content appear together). */
export async function writeNumbered(t: TestApp, n: number): Promise<void> {
  const response = await repo(t.app, 'PUT', `/load/${n}`, {
    headers: { 'content-type': 'application/octet-stream' },
    body: bytesOf(n),
  });
  if (response.statusCode !== 201) throw new Error(`write ${n}: ${response.statusCode} ${response.body}`);
}

/** The CLI's environment for a data directory: SQLite and local binaries, nothing inherited that points elsewhere. */
export function cliEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, SCRIPTORIUM_DATA_DIR: dataDir, ...extra };
  if (extra.DATABASE_URL === undefined) delete env.DATABASE_URL;
  if (extra.SCRIPTORIUM_BINARY_STORE === undefined) delete env.SCRIPTORIUM_BINARY_STORE;
  delete env.SCRIPTORIUM_SECRET;
  return env;
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `scriptorium <args>` in a child process without blocking this one (the test's writers go on). */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => {
      resolve({ status, stdout, stderr });
    });
  });
}

/** Every file under `dir` (relative paths), for "touched nothing" checks. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
