import fs from 'node:fs/promises';
import path from 'node:path';
import { serviceAgent } from '../audit/premis/service-agent.js';
import type { Config } from '../config/config.js';
import { binaryStoreOf } from '../embedded-repository/binaries/binary-store-of.js';
import type { BinaryStore } from '../embedded-repository/binaries/binary-store.js';
import {
  makePrivateDirectoryAsync,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
} from '../shared/private-files.js';
import {
  BackupError,
  binaryPath,
  DATA_FILES,
  DATABASE_FILE,
  FORMAT_VERSION,
  writeManifest,
  type BackupBinary,
  type BackupManifest,
  type DataFile,
} from './backup-manifest.js';
import { copyVerified, digestOfFile } from './binary-files.js';
import { formatBytes, inParallel, ProgressLine } from './progress.js';
import { contentsOf, openSqlite } from './sqlite-files.js';

export const POSTGRES_REFUSAL =
  'This database is PostgreSQL: back it up with pg_dump and a copy of the binary store, as README.md describes ' +
  '("Running in production", "Backups on PostgreSQL"). The backup command takes the embedded SQLite database only.';

/** Binaries read from the store at once (an object store answers each with some latency). */
const PARALLEL_READS = 4;

export interface BackupOptions {
  readonly config: Pick<Config, 'database' | 'dataDir' | 'binaryStore'>;
  /** The backup directory: created, or an existing empty one. */
  readonly dir: string;
  /** Progress and summary lines. */
  readonly report: (line: string) => void;
  /** The store to read binaries from (default: the configured one). */
  readonly store?: BinaryStore;
  /** Told after each step, before the next begins (tests write between the steps). */
  readonly onStep?: (step: 'binaries-listed' | 'snapshot-taken') => Promise<void>;
}

/**
 * `scriptorium backup <dir>` on the embedded SQLite database while the service runs (DECISIONS.md §17).
 * Binaries are content-addressed and immutable, and the store removes unreferenced content only past a
 * grace period, so: (1) copy the binaries the live database references; (2) take SQLite's online backup,
 * one consistent point in time; (3) copy the binaries the snapshot references that (1) did not see
 * (uploaded meanwhile, so younger than the grace period and still there; if one is missing the backup
 * fails, never looking complete); (4) drop what the snapshot does not reference, then write the manifest
 * last. Every copied binary's SHA-512 is checked as it is written.
 */
export async function takeBackup(options: BackupOptions): Promise<BackupManifest> {
  const { config, dir, report } = options;
  if (config.database.kind !== 'sqlite') throw new BackupError(POSTGRES_REFUSAL);
  if (config.database.file === ':memory:')
    throw new BackupError('The database is in memory: nothing to back up');
  await prepareEmptyDirectory(dir);
  const store = options.store ?? binaryStoreOf(config.binaryStore);
  const live = openSqlite(config.database.file, { readonly: false });
  const copied = new Map<string, number>();
  const failed = new Map<string, string>();
  const copy = async (sha512: string): Promise<void> => {
    try {
      copied.set(sha512, await copyVerified(() => store.read(sha512), binaryPath(dir, sha512), sha512));
      failed.delete(sha512);
    } catch (error) {
      failed.set(sha512, error instanceof Error ? error.message : String(error));
    }
  };
  const snapshotFile = path.join(dir, DATABASE_FILE);
  try {
    const listed = [...(await contentsOf(live)).digests];
    const progress = new ProgressLine(report, 'binaries copied', listed.length);
    await inParallel(listed, PARALLEL_READS, async (sha512) => {
      await copy(sha512);
      progress.advance(copied.get(sha512) ?? 0);
    });
    progress.finish();
    await options.onStep?.('binaries-listed');
    // All pages in one step: one read transaction, so one point in time (a step-wise backup restarts
    // whenever another connection writes, which under load may be forever). WAL lets writers go on.
    await live.backup(snapshotFile, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
  await fs.chmod(snapshotFile, PRIVATE_FILE_MODE);
  await selfContained(snapshotFile);
  report(`database snapshot taken: ${snapshotFile}`);
  await options.onStep?.('snapshot-taken');

  const snapshot = openSqlite(snapshotFile, { readonly: true });
  const contents = await contentsOf(snapshot).finally(() => snapshot.close());
  const late = [...contents.digests].filter((sha512) => !copied.has(sha512));
  if (late.length > 0) {
    const progress = new ProgressLine(report, 'binaries written during the backup copied', late.length);
    await inParallel(late, PARALLEL_READS, async (sha512) => {
      await copy(sha512);
      progress.advance(copied.get(sha512) ?? 0);
    });
    progress.finish();
  }
  const missing = [...contents.digests].filter((sha512) => !copied.has(sha512));
  const [first] = missing;
  if (first !== undefined) {
    throw new BackupError(
      `${missing.length} binar${missing.length === 1 ? 'y' : 'ies'} the snapshot references could not be copied ` +
        `from the ${store.kind} binary store, first ${first}: ${failed.get(first) ?? 'not found'}. ` +
        `The backup in ${dir} is incomplete (it has no manifest): remove it and retry.`,
    );
  }
  for (const sha512 of copied.keys()) {
    if (!contents.digests.has(sha512)) await fs.rm(binaryPath(dir, sha512), { force: true });
  }
  const files = await copyDataFiles(config.dataDir, dir);
  const items: BackupBinary[] = [...contents.digests]
    .sort()
    .map((sha512) => ({ sha512, size: copied.get(sha512) ?? 0 }));
  const database = await digestOfFile(snapshotFile, 'sha256');
  const manifest: BackupManifest = {
    format: 'scriptorium-backup',
    formatVersion: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    source: {
      database: 'sqlite',
      scriptoriumVersion: serviceAgent().version,
      migration: contents.migration,
      binaryStore: store.kind,
    },
    database: { file: DATABASE_FILE, bytes: database.size, sha256: database.hex },
    binaries: { count: items.length, bytes: items.reduce((sum, b) => sum + b.size, 0), items },
    files,
  };
  await writeManifest(dir, manifest);
  report(
    `Backup complete in ${dir}: database ${formatBytes(database.size)}, ${items.length} binaries ` +
      `(${formatBytes(manifest.binaries.bytes)})${files.length > 0 ? `, ${files.join(' and ')}` : ''}`,
  );
  return manifest;
}

/** Creates `dir` 0700, or accepts an existing empty one: a backup never mixes with other files. */
async function prepareEmptyDirectory(dir: string): Promise<void> {
  const entries = await fs.readdir(dir).catch((error: unknown) => {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new BackupError(`${dir} exists and is not a directory`);
    throw error;
  });
  if (entries !== undefined && entries.length > 0)
    throw new BackupError(`${dir} exists and is not empty: back up into a new or empty directory`);
  await makePrivateDirectoryAsync(dir);
  await fs.chmod(dir, PRIVATE_DIRECTORY_MODE);
}

/**
 * Turns the snapshot into one self-contained file (rollback journal instead of WAL): it can then be
 * opened read-only, hashed and copied without -wal or -shm companions. The service sets WAL again when
 * it opens the restored file.
 */
async function selfContained(file: string): Promise<void> {
  const sqlite = openSqlite(file, { readonly: false });
  try {
    sqlite.pragma('journal_mode = DELETE');
  } finally {
    sqlite.close();
  }
  for (const suffix of ['-wal', '-shm']) await fs.rm(`${file}${suffix}`, { force: true });
}

/**
 * The data directory's secret (it encrypts the repository views' stored passwords: without it a restore
 * loses them) and the embedded repository's generated password, when present, copied 0600.
 */
async function copyDataFiles(dataDir: string, dir: string): Promise<DataFile[]> {
  const copied: DataFile[] = [];
  for (const name of DATA_FILES) {
    const content = await fs.readFile(path.join(dataDir, name)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    });
    if (content === undefined) continue;
    await fs.writeFile(path.join(dir, name), content, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    copied.push(name);
  }
  return copied;
}
