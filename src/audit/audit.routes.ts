import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { AuditQuery, auditEventSchema, auditVerificationSchema } from './audit.api.js';
import type { AuditService } from './audit.service.js';

const tags = ['audit'];
const LIST = 'ArrayList<AuditEvent>';
const VERIFICATION = 'AuditVerification';

interface ListRequest {
  Querystring: Static<typeof AuditQuery>;
}

/** DECISIONS.md §14: reading the ledger. No route edits or deletes an event. */
export function auditRoutes(audit: AuditService) {
  return (app: FastifyInstance): void => {
    app.get<ListRequest>(
      '/audit',
      {
        schema: {
          tags,
          summary:
            'The audit trail, newest first: ADMIN everything; a curator the events of the views they curate',
          querystring: AuditQuery,
          response: { 200: envelopeSchema(payloadOf(LIST, { type: 'array', items: auditEventSchema })) },
        },
      },
      async (request) => {
        const events = await audit.list(request.query, principalOf(request));
        return success(LIST, events, 'Successfully retrieved the audit events.');
      },
    );
    app.get(
      '/audit/verify',
      {
        schema: {
          tags,
          summary: 'Recompute the hash chain: valid, how many events were checked, the first broken one',
          response: { 200: envelopeSchema(payloadOf(VERIFICATION, auditVerificationSchema)) },
        },
      },
      async () => {
        const verification = await audit.verify();
        return success(
          VERIFICATION,
          verification,
          verification.valid
            ? `The audit trail is intact (${verification.checked} events checked).`
            : `The audit trail is broken at event ${String(verification.firstBrokenId)}.`,
        );
      },
    );
  };
}
