import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { binaryStoreOf } from '../embedded-repository/binaries/binary-store-of.js';
import type { BinaryStore } from '../embedded-repository/binaries/binary-store.js';
import { makePrivateDirectoryAsync, PRIVATE_FILE_MODE } from '../shared/private-files.js';
import {
  BackupError,
  binaryPath,
  DATABASE_FILE,
  readManifest,
  type BackupManifest,
  type DataFile,
} from './backup-manifest.js';
import { digestOfFile } from './binary-files.js';
import { formatBytes, ProgressLine } from './progress.js';
import { contentsOf, openSqlite } from './sqlite-files.js';

export const POSTGRES_RESTORE_REFUSAL =
  'This database is PostgreSQL: restore it with pg_restore and the binary store copy, as README.md describes ' +
  '("Running in production", "Backups on PostgreSQL"). The restore command restores the embedded SQLite database only.';

export interface RestoreOptions {
  readonly config: Pick<Config, 'database' | 'dataDir' | 'binaryStore'>;
  readonly dir: string;
  /** Replace an existing database (it is moved aside, never deleted). */
  readonly force: boolean;
  readonly report: (line: string) => void;
  /** The store to write binaries into (default: the configured one). */
  readonly store?: BinaryStore;
}

/**
 * `scriptorium restore <dir>` (the service must be stopped): checks the whole backup against its
 * manifest before touching anything (the database's SHA-256, every binary's SHA-512 and size, every
 * digest the database references present), then writes the binaries into the configured store (which
 * recomputes each SHA-512) and puts the database in place last, so a restore that fails midway leaves no
 * database referencing missing content. An existing database is kept aside, and only with `force`.
 */
export async function restoreBackup(options: RestoreOptions): Promise<BackupManifest> {
  const { config, dir, report } = options;
  if (config.database.kind !== 'sqlite') throw new BackupError(POSTGRES_RESTORE_REFUSAL);
  const target = config.database.file;
  if (target === ':memory:')
    throw new BackupError('The configured database is in memory: nothing to restore into');
  const manifest = await readManifest(dir);
  await verifyBackup(dir, manifest, report);

  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = await plannedMoves(config.dataDir, target, dir, manifest.files);
  if (aside.length > 0 && !options.force)
    throw new BackupError(
      `${aside[0]} already exists: restoring would replace it. Stop the service and run restore with --force ` +
        'to move the current files aside (as <name>.before-restore-<timestamp>, never deleted).',
    );

  const store = options.store ?? binaryStoreOf(config.binaryStore);
  await store.init();
  const progress = new ProgressLine(report, 'binaries restored', manifest.binaries.count);
  for (const { sha512, size } of manifest.binaries.items) {
    const stored = await store.write(createReadStream(binaryPath(dir, sha512)), {
      maxBytes: Number.MAX_SAFE_INTEGER,
      expected: new Map(),
    });
    if (stored.sha512 !== sha512 || stored.size !== size)
      throw new BackupError(
        `Binary ${sha512} changed while it was restored (the store computed ${stored.sha512})`,
      );
    progress.advance(size);
  }
  progress.finish();

  for (const file of aside) {
    const moved = sideName(file, stamp);
    await fs.rename(file, moved);
    report(`moved aside: ${file} → ${moved}`);
  }
  if (aside.length > 0)
    report(
      'note: binaries only the replaced database references stay in the store until the start-up sweep removes ' +
        'them (10 minutes after their last write); back the current state up first to keep it restorable',
    );
  await placeFile(path.join(dir, DATABASE_FILE), target);
  for (const name of manifest.files) await placeFile(path.join(dir, name), path.join(config.dataDir, name));
  report(
    `Restored ${dir} (taken ${manifest.createdAt}, Scriptorium ${manifest.source.scriptoriumVersion}): ` +
      `database ${target} (${formatBytes(manifest.database.bytes)}), ${manifest.binaries.count} binaries ` +
      `(${formatBytes(manifest.binaries.bytes)}) into the ${store.kind} binary store` +
      (manifest.files.length > 0 ? `, ${manifest.files.join(' and ')}` : ''),
  );
  return manifest;
}

/** Every check of a backup against its manifest; throws naming what does not match. */
async function verifyBackup(
  dir: string,
  manifest: BackupManifest,
  report: (line: string) => void,
): Promise<void> {
  const databaseFile = path.join(dir, DATABASE_FILE);
  const database = await digestOfFile(databaseFile, 'sha256').catch(() => undefined);
  if (database === undefined) throw new BackupError(`${databaseFile} is missing`);
  if (database.hex !== manifest.database.sha256 || database.size !== manifest.database.bytes)
    throw new BackupError(
      `${databaseFile} does not match the manifest (its SHA-256 differs): the backup is damaged`,
    );
  const progress = new ProgressLine(report, 'binaries verified', manifest.binaries.count);
  for (const { sha512, size } of manifest.binaries.items) {
    const file = binaryPath(dir, sha512);
    const actual = await digestOfFile(file, 'sha512').catch(() => undefined);
    if (actual === undefined) throw new BackupError(`Binary ${sha512} is missing from the backup (${file})`);
    if (actual.hex !== sha512 || actual.size !== size)
      throw new BackupError(
        `Binary ${sha512} is damaged: its SHA-512 or size (${actual.size} bytes, ${size} expected) does not match (${file})`,
      );
    progress.advance(size);
  }
  progress.finish();
  const listed = new Set(manifest.binaries.items.map((b) => b.sha512));
  const snapshot = openSqlite(databaseFile, { readonly: true });
  const { digests } = await contentsOf(snapshot).finally(() => snapshot.close());
  const absent = [...digests].filter((sha512) => !listed.has(sha512));
  if (absent.length > 0)
    throw new BackupError(
      `The backup's database references ${absent.length} binar${absent.length === 1 ? 'y' : 'ies'} the backup lacks, first ${absent[0]}`,
    );
  for (const name of manifest.files) {
    await fs.access(path.join(dir, name)).catch(() => {
      throw new BackupError(`${path.join(dir, name)} is missing`);
    });
  }
  report(
    `backup verified: database SHA-256 and ${manifest.binaries.count} binaries' SHA-512 match the manifest`,
  );
}

/**
 * What a restore would replace: the database (with its WAL companions) and data files that differ from
 * the backup's. They are moved aside together, so the old database stays openable with its own WAL.
 */
async function plannedMoves(
  dataDir: string,
  target: string,
  dir: string,
  files: readonly DataFile[],
): Promise<string[]> {
  const moves: string[] = [];
  for (const file of [target, `${target}-wal`, `${target}-shm`, `${target}-journal`]) {
    if (await exists(file)) moves.push(file);
  }
  for (const name of files) {
    const current = await fs.readFile(path.join(dataDir, name)).catch(() => undefined);
    if (current !== undefined && !current.equals(await fs.readFile(path.join(dir, name))))
      moves.push(path.join(dataDir, name));
  }
  return moves;
}

/** `scriptorium.sqlite-wal` → `scriptorium.sqlite.before-restore-<stamp>-wal` (SQLite's naming for its WAL). */
function sideName(file: string, stamp: string): string {
  const companion = /-(wal|shm|journal)$/.exec(file);
  const base = companion === null ? file : file.slice(0, -companion[0].length);
  return `${base}.before-restore-${stamp}${companion?.[0] ?? ''}`;
}

/** Copies `from` to `to` (0600) through a temporary name, synced, then renamed into place. */
async function placeFile(from: string, to: string): Promise<void> {
  await makePrivateDirectoryAsync(path.dirname(to));
  const temp = `${to}.restoring`;
  await fs.copyFile(from, temp);
  await fs.chmod(temp, PRIVATE_FILE_MODE);
  const handle = await fs.open(temp, 'r+');
  await handle.sync().finally(() => handle.close());
  await fs.rename(temp, to);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
