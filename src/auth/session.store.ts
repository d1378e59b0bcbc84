import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { PreparedQuery } from '../db/prepared-query.js';
import { isRole, type Role } from '../http/access.js';

export interface SessionOwner {
  userId: number;
  username: string;
  role: Role;
  expiresAt: number;
}

/** Sessions live in the database, so every instance behind a load balancer agrees on revocations. */
export class SessionStore {
  /** Asked on every authenticated request, so built and compiled once; it still reads the table each time. */
  private readonly live;

  constructor(private readonly db: Kysely<Database>) {
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

  /** The owner of a live session, or undefined when unknown or expired. */
  async findLive(tokenHash: string, now: number): Promise<SessionOwner | undefined> {
    const row = await this.live.executeTakeFirst({ tokenHash, now });
    if (row === undefined || !isRole(row.role)) return undefined;
    return { userId: row.userId, username: row.username, role: row.role, expiresAt: row.expiresAt };
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

/**
 * Failed sign-ins per username. Every attempt is recorded *before* the password is checked, so a burst
 * of parallel guesses is counted exactly; a success clears the username's record.
 */
export class LoginAttemptStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records an attempt and answers how many attempts the username has made since `windowStart`. */
  async record(username: string, now: number, windowStart: number): Promise<number> {
    await this.db.insertInto('login_attempts').values({ username, attempted_at: now }).execute();
    const row = await this.db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('username', '=', username)
      .where('attempted_at', '>', windowStart)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  async clear(username: string): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('username', '=', username).execute();
  }

  async deleteOlderThan(cutoff: number): Promise<void> {
    await this.db.deleteFrom('login_attempts').where('attempted_at', '<=', cutoff).execute();
  }
}
