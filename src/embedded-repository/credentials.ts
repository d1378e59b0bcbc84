import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { makePrivateDirectory } from '../shared/private-files.js';

export interface RepositoryCredentials {
  readonly username: string;
  readonly password: string;
  /** Where a generated password is kept (undefined when it came from the environment). */
  readonly passwordFile: string | undefined;
}

export const PASSWORD_FILE = 'repository-password';

/**
 * The embedded repository's HTTP Basic credentials (DECISIONS.md §1): the configured password, or one
 * generated on first start and kept in `<dataDir>/repository-password` (mode 0600) so that restarts and
 * other instances sharing the data directory use the same one.
 */
export function resolveRepositoryCredentials(
  config: Pick<Config, 'dataDir' | 'repositoryUsername' | 'repositoryPassword'>,
): RepositoryCredentials {
  if (config.repositoryPassword !== undefined) {
    return {
      username: config.repositoryUsername,
      password: config.repositoryPassword,
      passwordFile: undefined,
    };
  }
  const file = path.join(config.dataDir, PASSWORD_FILE);
  const existing = readPassword(file);
  if (existing !== undefined)
    return { username: config.repositoryUsername, password: existing, passwordFile: file };
  makePrivateDirectory(config.dataDir);
  const generated = randomBytes(24).toString('base64url');
  try {
    fs.writeFileSync(file, `${generated}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = readPassword(file);
    if (theirs === undefined) throw new Error(`${file} exists but is empty`, { cause: error });
    return { username: config.repositoryUsername, password: theirs, passwordFile: file };
  }
  fs.chmodSync(file, 0o600);
  return { username: config.repositoryUsername, password: generated, passwordFile: file };
}

function readPassword(file: string): string | undefined {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
