import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { dataVersionOf, VersionedCache } from '../db/data-version.js';
import { PreparedQuery } from '../db/prepared-query.js';
import { isRole, type Principal } from './roles.js';
import { hashToken } from './tokens.js';

/** How many sessions' owners are kept in memory (the least recently used go first). */
const KEPT_SESSIONS = 1_000;

/**
 * Sessions live in the database, so every instance behind a load balancer agrees on revocations. The
 * caller of a session is kept in memory while the database's data version says nothing changed (any
 * sign-out, revocation, role change or user removal, by any instance, moves it), and its expiry is
 * checked on every use, so a kept session is never one the table would refuse.
 *
 * Kept by bearer token, so a kept session costs no SHA-256 of the token either: the token is in memory
 * exactly as long as the session it opens is kept (dropped with it on any write, on eviction, or when
 * the process ends), and only the hash ever reaches the database.
 */
export class SessionStore {
  /** Asked on every authenticated request, so built and compiled once. */
  private readonly live;
  private readonly kept: VersionedCache<string, Principal>;

  constructor(private readonly db: Kysely<Database>) {
    this.kept = new VersionedCache(dataVersionOf(db), KEPT_SESSIONS);
    this.live = PreparedQuery.of(db, { tokenHash: '', now: 0 }, (p) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id as userId', 'users.username', 'users.role', 'sessions.expires_at as expiresAt'])
        .where('sessions.token_hash', '=', p.tokenHash)
        .where('sessions.expires_at', '>', p.now),
    );
  }

  async insert(tokenHash: string, userId: number, expiresAt: number, now: number): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt, created_at: now })
      .execute();
  }

  /**
   * The caller of a live session kept in memory, answered at once; undefined when none is kept for this
   * token or it expired (then ask `findLive`, which reads the table).
   */
  keptLive(token: string, now: number): Principal | undefined {
    const principal = this.kept.peek(token);
    return principal !== undefined && principal.expiresAt > now ? principal : undefined;
  }

  /** The caller of a live session, or undefined when the token is unknown, revoked or expired. */
  async findLive(token: string, now: number): Promise<Principal | undefined> {
    const principal = await this.kept.find(token, async () => {
      const tokenHash = hashToken(token);
      const row = await this.live.executeTakeFirst({ tokenHash, now });
      if (row === undefined || !isRole(row.role)) return undefined;
      const { userId, username, role, expiresAt } = row;
      return Object.freeze({ userId, username, role, tokenHash, expiresAt });
    });
    return principal !== undefined && principal.expiresAt > now ? principal : undefined;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteForUser(userId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  }
}

/** What the lock-out needs to know about the attempts made before one from the same place. */
export interface EarlierAttempts {
  /** How many, within the window (attempts still being checked count too). */
  readonly count: number;
  /** When the latest of them was made (epoch ms), undefined without any. */
  readonly latest: number | undefined;
}

/**
 * Sign-in attempts per (username, client address). An attempt is recorded *before* its password is
 * checked, and then compared with the ones recorded before it, so a burst of parallel guesses is counted
 * exactly; an attempt the lock-out refuses is removed again, so refused guesses add no rows. A success
 * clears the (username, address) record; the rest ages out (`deleteOlderThan`, on a timer).
 */
export class LoginAttemptStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an attempt; answers its id and the attempts from the same place since `windowStart`. */
  async record(
    username: string,
    address: string,
    now: number,
    windowStart: number,
  ): Promise<{ id: number; earlier: EarlierAttempts }> {
    const { id } = await this.db
      .insertInto('login_attempts')
      .values({ username, address, attempted_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = await this.db
      .selectFrom('login_attempts')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.max<number | null>('attempted_at').as('latest'),
      ])
      .where('username', '=', username)
      .where('address', '=', address)
      .where('attempted_at', '>', windowStart)
      .where('id', '!=', id)
      .executeTakeFirstOrThrow();
    return { id, earlier: { count: row.n, latest: row.latest ?? undefined } };
  }

  /** Forgets one attempt: it was refused before its password was checked. */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('id', '=', id).execute();
  }

  async clear(username: string, address: string): Promise<void> {
    await this.db
      .deleteFrom('login_attempts')
      .where('username', '=', username)
      .where('address', '=', address)
      .execute();
  }

  /** Removes attempts made at or before `cutoff`; answers how many went. */
  async deleteOlderThan(cutoff: number): Promise<number> {
    const result = await this.db
      .deleteFrom('login_attempts')
      .where('attempted_at', '<=', cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** How many attempts are kept (tests). */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return row.n;
  }
}
