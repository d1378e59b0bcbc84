import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/config.js';
import { formatBasicAuthorization, parseBasicAuthorization } from '../linked-data/http/basic-auth.js';
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

const sha256 = (text: string): Buffer => hash('sha256', text, 'buffer');

/** What an Authorization header says about the repository's credentials. */
export type CredentialVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'wrong' }
  | { readonly kind: 'right'; readonly username: string };

/**
 * Checks HTTP Basic credentials against the repository's in constant time: comparisons are of SHA-256
 * digests (equal lengths, so the time says nothing of how much matched). The expected digests are taken
 * once, not per request, and the header a client normally sends — exactly `Basic base64(user:password)`
 * — is recognised with one digest instead of parsing and two; any other spelling is parsed and both
 * parts compared, both always, so timing does not tell which part was wrong.
 */
export class CredentialCheck {
  private readonly username: string;
  private readonly usernameDigest: Buffer;
  private readonly passwordDigest: Buffer;
  private readonly headerDigest: Buffer;

  constructor(credentials: Pick<RepositoryCredentials, 'username' | 'password'>) {
    this.username = credentials.username;
    this.usernameDigest = sha256(credentials.username);
    this.passwordDigest = sha256(credentials.password);
    this.headerDigest = sha256(formatBasicAuthorization(credentials.username, credentials.password));
  }

  verify(authorization: string | undefined): CredentialVerdict {
    if (authorization === undefined) return { kind: 'none' };
    if (timingSafeEqual(sha256(authorization), this.headerDigest))
      return { kind: 'right', username: this.username };
    const presented = parseBasicAuthorization(authorization);
    if (presented === undefined) return { kind: 'none' };
    const userOk = timingSafeEqual(sha256(presented.username), this.usernameDigest);
    const passwordOk = timingSafeEqual(sha256(presented.password), this.passwordDigest);
    return userOk && passwordOk ? { kind: 'right', username: presented.username } : { kind: 'wrong' };
  }
}
