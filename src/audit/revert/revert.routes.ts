import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/access.js';
import { success } from '../../http/envelope.js';
import { envelopeSchema, payloadOf, type JsonSchema } from '../../http/schemas.js';
import { idParams } from '../../shared/body-schema.js';
import { AUDIT_ACTIONS } from '../audit-event.js';
import type { RevertService } from './revert.service.js';

const EventIdParams = idParams('The audit event id must be a positive integer');

/**
 * `AuditEvent` (DECISIONS.md §14), keys in the wire order. `detail` is open: its shape depends on the
 * action (removed/added N-Triples lines, a binary's digest and size, a configuration's changed fields).
 */
export const revertedEventSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    time: { type: 'string', format: 'date-time' },
    username: { type: ['string', 'null'] },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    repositoryViewId: { type: ['integer', 'null'] },
    contextUri: { type: ['string', 'null'] },
    jobId: { type: ['integer', 'null'] },
    requestId: { type: ['string', 'null'] },
    outcome: { type: 'string', enum: ['SUCCESS', 'FAILURE'] },
    detail: { type: 'object', additionalProperties: true },
    hash: { type: 'string' },
  },
};

/** `POST /audit/:id/revert` ("Revert this change", issue 30): ADMIN, or a curator of the event's view. */
export function revertRoutes(service: RevertService) {
  return (app: FastifyInstance): Promise<void> => {
    app.post<{ Params: Static<typeof EventIdParams> }>(
      '/audit/:id/revert',
      {
        schema: {
          tags: ['audit'],
          summary:
            'Revert one metadata change: its inverse written as a new change (metadata.revert), only while the resource still shows it',
          params: EventIdParams,
          response: { 200: envelopeSchema(payloadOf('AuditEvent', revertedEventSchema)) },
        },
      },
      async (request) =>
        success(
          'AuditEvent',
          await service.revert(request.params.id, principalOf(request), request.id),
          'The change was reverted',
        ),
    );
    return Promise.resolve();
  };
}
