/**
 * One-time tickets for `GET /events?ticket=` (DECISIONS.md §10): only the SHA-256 of a ticket is stored,
 * with the session it was issued from (the stream lives as long as that session), and it goes with the
 * session (logout, revocation). In the database, so any instance behind a load balancer can redeem it.
 */
export interface EventTicketTable {
  ticket_hash: string;
  session_hash: string;
  /** Epoch milliseconds. */
  expires_at: number;
}
