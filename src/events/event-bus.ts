/**
 * Service events (DECISIONS.md §10, issue 12): every change made through the service is published here and
 * reaches `GET /events` subscribers that may read it. On PostgreSQL the bus also fans events out to the other
 * instances on the same database (LISTEN/NOTIFY); on SQLite it stays in process.
 */
import type { Role } from '../auth/roles.js';

export type EventAction = 'CREATE' | 'UPDATE' | 'DELETE' | 'PROGRESS';

/**
 * Who may see an event: the same rule as reading it through the API. `admin`: administrators only (plus
 * `userId`, a user's own record); `view`: administrators and the view's curators (as they are when the
 * event is delivered, plus `curatorIds`: a deleted view has no curators left to look up); `role`: every
 * signed-in user with at least that role (schemas: curators, as `GET /schema`); `signedIn`: every
 * signed-in user.
 */
export type EventAudience =
  | { readonly kind: 'admin'; readonly userId?: number }
  | { readonly kind: 'view'; readonly viewId: number; readonly curatorIds?: readonly number[] }
  | { readonly kind: 'role'; readonly role: Role }
  | { readonly kind: 'signedIn' };

export interface ServiceEvent {
  /** The SSE `event:` field: `repository-view`, `schema`, `user`, `context/<viewId>`, `curation-job/<jobId>`. */
  readonly channel: string;
  readonly action: EventAction;
  /** `meta.id` of the envelope: the entity's id, or the resource's IRI on `context/<viewId>`. */
  readonly id: string;
  readonly message: string;
  /** The envelope's payload (e.g. `{ "RepositoryView": {...} }`); `{}` when there is nothing to add. */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly audience: EventAudience;
}

export interface EventBus {
  /** Never throws and never waits: a lost event must not fail the change that caused it. */
  publish(event: ServiceEvent): void;
}

/** The bus of a service built without one (unit tests, the CLI): events go nowhere. */
export const NO_EVENTS: EventBus = { publish: () => undefined };
