import type { Generated } from 'kysely';

/** A place notices go (migration 022): a webhook (`url`, encrypted `secret`) or an e-mail `address`. */
export interface NotificationTargetTable {
  id: Generated<number>;
  name: string;
  kind: string;
  url: string | null;
  address: string | null;
  /** JSON text of the event names the target wants. */
  events: string;
  /** Only this view's jobs; null: every view's. */
  repository_view_id: number | null;
  /** WEBHOOK: the signing secret, encrypted (PasswordCipher); null for EMAIL. */
  secret: string | null;
  created_by: number;
  created: number;
}

/** One notice to one target about one subject (`job/<id>`, `audit/<first broken id>`); times epoch ms. */
export interface NotificationDeliveryTable {
  id: Generated<number>;
  target_id: number;
  subject_key: string;
  event: string;
  /** JSON text of the notice (`{event, job, summary}`), fixed at creation so every retry sends the same. */
  payload: string;
  /** PENDING, DELIVERED or FAILED (given up). */
  state: string;
  attempts: Generated<number>;
  next_attempt: number;
  lease_owner: string | null;
  lease_expires: number | null;
  created: number;
  finished: number | null;
}

/** One try at a delivery: DELIVERED or FAILED, the HTTP status or SMTP response, and why it failed. */
export interface NotificationAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempted: number;
  outcome: string;
  status: number | null;
  response: string | null;
  error: string | null;
  duration_ms: number;
}
