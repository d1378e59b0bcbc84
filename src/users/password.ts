import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { ConcurrencyLimit, QueueFullError } from '../shared/concurrency-limit.js';

/**
 * Password hashing with scrypt and a per-user random salt. Stored form:
 * `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`, so the cost can be raised later without breaking
 * existing hashes.
 */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 64;
// 128 * N * r bytes are needed; give scrypt headroom above Node's 32 MiB default.
const MAX_MEMORY = 64 * 1024 * 1024;

/**
 * scrypt runs on libuv's pool (4 threads), which file reads and writes share: two at a time leave the
 * other threads to the rest of the service however many sign-ins arrive. Sixteen may wait (a few hundred
 * milliseconds); a sign-in beyond that is refused as busy rather than queued without end.
 */
export const MAX_CONCURRENT_HASHES = 2;
export const MAX_WAITING_HASHES = 16;
const limit = new ConcurrencyLimit(MAX_CONCURRENT_HASHES, MAX_WAITING_HASHES);

/** A sign-in arrived while the password-hashing queue was full. */
export class PasswordHashingBusyError extends Error {
  constructor() {
    super('Too many sign-ins are being checked at the moment; try again in a second');
    this.name = 'PasswordHashingBusyError';
  }
}

const load = { running: 0, peakRunning: 0, computed: 0, lastCost: '' };
/**
 * How many scrypt computations run now, at most since the last reset and in all, and the cost
 * parameters (`N/r/p`) of the last one (tests watch the bound and that every sign-in does the same work).
 */
export function passwordHashingLoad(): {
  running: number;
  peakRunning: number;
  computed: number;
  lastCost: string;
} {
  return { ...load };
}
export function resetPasswordHashingPeak(): void {
  load.peakRunning = load.running;
}

function scrypt(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
  refuseWhenBusy = false,
): Promise<Buffer> {
  const compute = () => {
    load.running += 1;
    load.computed += 1;
    load.lastCost = `${String(options.N)}/${String(options.r)}/${String(options.p)}`;
    load.peakRunning = Math.max(load.peakRunning, load.running);
    return new Promise<Buffer>((resolve, reject) => {
      scryptCallback(
        password.normalize('NFC'),
        salt,
        KEY_LENGTH,
        { ...options, maxmem: MAX_MEMORY },
        (error, key) => {
          if (error) reject(error);
          else resolve(key);
        },
      );
    }).finally(() => {
      load.running -= 1;
    });
  };
  return limit.run(compute, { refuseWhenFull: refuseWhenBusy }).catch((error: unknown) => {
    throw error instanceof QueueFullError ? new PasswordHashingBusyError() : error;
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Constant-time check; a malformed stored hash simply fails. With `refuseWhenBusy` (anonymous sign-in)
 * a full hashing queue throws PasswordHashingBusyError instead of waiting.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  options: { refuseWhenBusy?: boolean } = {},
): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(
    password,
    Buffer.from(salt, 'base64'),
    { N: Number(n), r: Number(r), p: Number(p) },
    options.refuseWhenBusy,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a random password, verified against when the username is unknown so that an unknown user
 * and a wrong password take the same time.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64'));
  return decoy;
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
