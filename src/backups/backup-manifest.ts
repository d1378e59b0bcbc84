import fs from 'node:fs/promises';
import path from 'node:path';
import type { BinaryStoreKind } from '../embedded-repository/binaries/binary-store.js';
import { PRIVATE_FILE_MODE } from '../shared/private-files.js';

/** Raised for anything that stops a backup or a restore; the CLI prints its message and exits 1. */
export class BackupError extends Error {}

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'scriptorium.sqlite';
export const BINARIES_DIR = 'binaries';
/** Files of the data directory a restore needs besides the database (see `copiedDataFiles`). */
export const DATA_FILES = ['secret', 'repository-password'] as const;
export type DataFile = (typeof DATA_FILES)[number];

const FORMAT = 'scriptorium-backup';
export const FORMAT_VERSION = 1;

export interface BackupBinary {
  readonly sha512: string;
  readonly size: number;
}

/**
 * `<dir>/manifest.json`, written last: a backup directory without it is incomplete. A restore checks every
 * file against it before touching anything.
 */
export interface BackupManifest {
  readonly format: typeof FORMAT;
  readonly formatVersion: typeof FORMAT_VERSION;
  readonly createdAt: string;
  readonly source: {
    readonly database: 'sqlite';
    readonly scriptoriumVersion: string;
    /** The last schema migration the database had (a restore needs a Scriptorium that knows it). */
    readonly migration: string | null;
    readonly binaryStore: BinaryStoreKind;
  };
  readonly database: { readonly file: typeof DATABASE_FILE; readonly bytes: number; readonly sha256: string };
  readonly binaries: {
    readonly count: number;
    readonly bytes: number;
    readonly items: readonly BackupBinary[];
  };
  /** Data-directory files copied beside the database (the secret that encrypts stored passwords). */
  readonly files: readonly DataFile[];
}

export function binaryPath(dir: string, sha512: string): string {
  return path.join(dir, BINARIES_DIR, sha512.slice(0, 2), sha512.slice(2, 4), sha512);
}

/** Writes the manifest through a temporary file and a rename, so it appears whole or not at all. */
export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  const temp = path.join(dir, `${MANIFEST_FILE}.partial`);
  const handle = await fs.open(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, path.join(dir, MANIFEST_FILE));
}

/** Reads and checks `<dir>/manifest.json`; refuses a directory without one or of another format. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BackupError(
        `${dir} holds no ${MANIFEST_FILE}: not a backup, or one that did not finish (the manifest is written last)`,
      );
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BackupError(`${path.join(dir, MANIFEST_FILE)} is not valid JSON`);
  }
  const manifest = parsed as Partial<BackupManifest> | null;
  if (manifest?.format !== FORMAT)
    throw new BackupError(`${path.join(dir, MANIFEST_FILE)} is not a Scriptorium backup manifest`);
  if (manifest.formatVersion !== FORMAT_VERSION)
    throw new BackupError(
      `The backup's format version is ${String(manifest.formatVersion)}; this Scriptorium restores version ${FORMAT_VERSION}`,
    );
  if (!wellFormed(manifest))
    throw new BackupError(`${path.join(dir, MANIFEST_FILE)} is incomplete or malformed`);
  return manifest;
}

function wellFormed(m: Partial<BackupManifest>): m is BackupManifest {
  const items: unknown = m.binaries?.items;
  return (
    typeof m.database?.sha256 === 'string' &&
    typeof m.database.bytes === 'number' &&
    Array.isArray(items) &&
    items.every(isBinary) &&
    m.binaries?.count === items.length &&
    Array.isArray(m.files) &&
    (m.files as unknown[]).every((f) => (DATA_FILES as readonly unknown[]).includes(f))
  );
}

function isBinary(value: unknown): value is BackupBinary {
  const { sha512, size } = (value ?? {}) as Partial<BackupBinary>;
  return (
    typeof sha512 === 'string' &&
    /^[0-9a-f]{128}$/.test(sha512) &&
    typeof size === 'number' &&
    Number.isSafeInteger(size) &&
    size >= 0
  );
}
