import { Type } from '@sinclair/typebox';
import type { JsonSchema } from '../http/schemas.js';
import { messages } from '../shared/body-schema.js';
import { AUDIT_ACTIONS } from './audit-event.js';

/** `GET /audit`: a page holds 100 events unless `limit` says otherwise, at most this many. */
export const DEFAULT_AUDIT_LIMIT = 100;
export const MAX_AUDIT_LIMIT = 1000;

function textParameter(name: string, description: string) {
  return Type.Optional(
    Type.String({ description, ...messages({ type: `The query parameter ${name} must be given once` }) }),
  );
}

/**
 * The query string of GET /audit. Every parameter is text here (only a repeated one is the 400 of every
 * query parameter, http/parameters.ts): a bad number, date or action is the service's INVALID, all of them
 * in one answer (DECISIONS.md §3).
 */
export const AuditQuery = Type.Object({
  repositoryViewId: textParameter(
    'repositoryViewId',
    'Events written through this view, and writes made straight to the embedded /rest at or below its root',
  ),
  contextUri: textParameter('contextUri', 'Events of this resource (its IRI, exactly)'),
  username: textParameter('username', 'Events of this person (exactly)'),
  action: textParameter('action', `One of ${AUDIT_ACTIONS.join(', ')}`),
  from: textParameter(
    'from',
    'ISO 8601 date or date-time (2026-11-28, 2026-11-28T07:00:00Z); a date alone: its start (UTC); inclusive',
  ),
  to: textParameter(
    'to',
    'ISO 8601 date or date-time (2026-11-28, 2026-11-28T07:00:00Z); a date alone: its end (UTC); inclusive',
  ),
  offset: textParameter('offset', 'Events to skip, newest first (default 0)'),
  limit: textParameter('limit', `Events to answer, 1 to ${MAX_AUDIT_LIMIT} (default ${DEFAULT_AUDIT_LIMIT})`),
});

/** `AuditEvent` (DECISIONS.md §14), keys in the wire order. */
export const auditEventSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: 'Assigned in the chain’s order' },
    time: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC, milliseconds' },
    username: {
      type: ['string', 'null'],
      description: 'The signed-in user (a write straight to /rest: its Basic-auth user); null: nobody',
    },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    repositoryViewId: {
      type: ['integer', 'null'],
      description: 'The view the change was written through; null: straight to /rest, or not a view’s',
    },
    contextUri: { type: ['string', 'null'], description: 'The resource’s IRI' },
    jobId: { type: ['integer', 'null'], description: 'The curation job whose apply or undo wrote it' },
    requestId: { type: ['string', 'null'] },
    outcome: { type: 'string', enum: ['SUCCESS', 'FAILURE'] },
    detail: {
      type: 'object',
      additionalProperties: true,
      description:
        'Metadata: {removed, added} N-Triples lines; binary.upload: {digest, size, mimeType, filename}; ' +
        'versions: {version, label}; configuration: {id, name, fields}; never a credential',
    },
    hash: {
      type: 'string',
      description: 'SHA-256 (hex) over the event’s canonical JSON and the previous event’s hash',
    },
  },
  required: [
    'id',
    'time',
    'username',
    'action',
    'repositoryViewId',
    'contextUri',
    'jobId',
    'requestId',
    'outcome',
    'detail',
    'hash',
  ],
};

/** `AuditVerification` of GET /audit/verify. */
export const auditVerificationSchema: JsonSchema = {
  type: 'object',
  properties: {
    valid: { type: 'boolean' },
    checked: { type: 'integer', description: 'Events checked, oldest first' },
    firstBrokenId: {
      type: ['integer', 'null'],
      description: 'The first event whose hash does not follow from the chain; null when valid',
    },
  },
  required: ['valid', 'checked', 'firstBrokenId'],
};
