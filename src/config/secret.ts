import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDirectory } from '../shared/private-files.js';
import type { Config } from './config.js';

export const SECRET_FILE = 'secret';

/**
 * SCRIPTORIUM_SECRET, or one generated on first start and kept in `<dataDir>/secret` (mode 0600).
 * Instances that share one PostgreSQL database must share the secret: set it, or share the data dir.
 */
export function resolveSecret(config: Pick<Config, 'dataDir' | 'secret'>): string {
  if (config.secret !== undefined) return config.secret;
  const file = path.join(config.dataDir, SECRET_FILE);
  const existing = read(file);
  if (existing !== undefined) return existing;
  makePrivateDirectory(config.dataDir);
  const generated = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${generated}\n`, { flag: 'wx', mode: 0o600 });
    return generated;
  } catch (error) {
    // Another process created it first: use theirs.
    const theirs = read(file);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && theirs !== undefined) return theirs;
    throw error;
  }
}

function read(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
