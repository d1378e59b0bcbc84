import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/access.js';
import { success } from '../../http/envelope.js';
import { envelopeSchema, payloadOf } from '../../http/schemas.js';
import { idParams } from '../../shared/body-schema.js';
import { auditEventSchema } from '../audit.api.js';
import type { RevertService } from './revert.service.js';

const EventIdParams = idParams('The audit event id must be a positive integer');

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
          response: { 200: envelopeSchema(payloadOf('AuditEvent', auditEventSchema)) },
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
