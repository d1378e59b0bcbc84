import type { Kysely } from 'kysely';
import { isRole, type Principal } from '../auth/roles.js';
import { hashToken, newToken } from '../auth/tokens.js';
import type { Database } from '../db/database.js';

/** How long a ticket may wait for its `GET /events` (DECISIONS.md §10). */
export const TICKET_TTL_MS = 60_000;

export interface IssuedTicket {
  readonly ticket: string;
  /** Epoch milliseconds. */
  readonly expires: number;
}

/** Tickets are 256 random bits, base64url (auth/tokens.ts): anything else is refused before any query. */
const TICKET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Event tickets and the sessions behind event streams. A ticket is redeemed by deleting its row, so two
 * instances racing for one ticket cannot both win; the stream it opens belongs to the session that asked
 * for it, and closes when that session ends.
 */
export class EventTicketStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** A ticket for the caller's session, valid for 60 s (never beyond the session itself). */
  async issue(caller: Principal, now: number): Promise<IssuedTicket> {
    // Unredeemed tickets would otherwise stay until their session ends; the table stays tiny.
    await this.db.deleteFrom('event_tickets').where('expires_at', '<=', now).execute();
    const ticket = newToken();
    const expires = Math.min(now + TICKET_TTL_MS, caller.expiresAt);
    await this.db
      .insertInto('event_tickets')
      .values({ ticket_hash: hashToken(ticket), session_hash: caller.tokenHash, expires_at: expires })
      .execute();
    return { ticket, expires };
  }

  /** The owner of the ticket's session, once: the ticket is gone afterwards. Undefined when not valid. */
  async redeem(ticket: string, now: number): Promise<Principal | undefined> {
    if (!TICKET_SHAPE.test(ticket)) return undefined;
    const row = await this.db
      .deleteFrom('event_tickets')
      .where('ticket_hash', '=', hashToken(ticket))
      .returning(['session_hash', 'expires_at'])
      .executeTakeFirst();
    if (row === undefined || row.expires_at <= now) return undefined;
    return this.liveSession(row.session_hash, now);
  }

  /**
   * The session's owner as the database has them now (role included), or undefined once the session
   * was signed out, revoked or expired. Read afresh each time: streams ask on every keep-alive.
   */
  async liveSession(tokenHash: string, now: number): Promise<Principal | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id as userId', 'users.username', 'users.role', 'sessions.expires_at as expiresAt'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
    if (row === undefined || !isRole(row.role)) return undefined;
    return {
      userId: row.userId,
      username: row.username,
      role: row.role,
      tokenHash,
      expiresAt: row.expiresAt,
    };
  }
}
