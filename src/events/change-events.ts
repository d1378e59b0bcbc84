import { toSchemaJson, type Schema } from '../schemas/schema.js';
import { toUserJson, type User } from '../users/user.js';
import type { EventAction, ServiceEvent } from './event-bus.js';

/**
 * The events of the services' changes (DECISIONS.md §10), built here so that each service publishes with
 * one line and every channel's shape and audience is decided in one place.
 */
const PAST: Readonly<Record<EventAction, string>> = {
  CREATE: 'created',
  UPDATE: 'updated',
  DELETE: 'deleted',
  PROGRESS: 'in progress',
};

/**
 * `repository-view`: the API's `RepositoryView` (password null) when there is one to send. Seen by
 * administrators and the view's curators; `curatorIds` are the curators at the time of the change, so
 * those of a deleted view hear of its deletion.
 */
export function repositoryViewEvent(
  action: EventAction,
  view: { readonly id: number; readonly curatorIds: readonly number[] },
  json: Record<string, unknown> | undefined,
): ServiceEvent {
  return {
    channel: 'repository-view',
    action,
    id: String(view.id),
    message: `Repository view ${PAST[action]}`,
    payload: json === undefined ? {} : { RepositoryView: { ...json, password: null } },
    audience: { kind: 'view', viewId: view.id, curatorIds: [...view.curatorIds] },
  };
}

/** `schema`: the API's `Schema`; seen by whoever may read schemas (`GET /schema`: curators and up). */
export function schemaEvent(action: EventAction, schema: Schema | { readonly id: number }): ServiceEvent {
  return {
    channel: 'schema',
    action,
    id: String(schema.id),
    message: `Schema ${PAST[action]}`,
    payload: 'name' in schema ? { Schema: toSchemaJson(schema) } : {},
    audience: { kind: 'role', role: 'ROLE_CURATOR' },
  };
}

/** `user`: the API's `User` (never a password hash); seen by administrators and the user. */
export function userEvent(
  action: EventAction,
  user: User | { readonly id: number },
  message = `User ${PAST[action]}`,
): ServiceEvent {
  return {
    channel: 'user',
    action,
    id: String(user.id),
    message,
    payload: 'username' in user ? { User: toUserJson(user) } : {},
    audience: { kind: 'admin', userId: user.id },
  };
}

/**
 * `context/<viewId>`: a resource of the view changed through the service; `meta.id` is its IRI. The
 * payload stays small (the client reads the context if it shows it).
 */
export function contextEvent(
  viewId: number,
  action: EventAction,
  contextUri: string,
  message: string,
): ServiceEvent {
  return {
    channel: `context/${viewId}`,
    action,
    id: contextUri,
    message,
    payload: { contextUri },
    audience: { kind: 'view', viewId },
  };
}
