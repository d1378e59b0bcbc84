import type { FastifyInstance } from 'fastify';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { requireObjectBody } from '../shared/request-body.js';
import { applyRequestSchema, mappedDocumentSchema } from './operator.api.js';
import type { OperatorApplyService } from './operator-apply.service.js';

/** POST /operators/apply (DECISIONS.md §4), ADMIN like every operator route. */
export function operatorApplyRoutes(service: OperatorApplyService) {
  return (app: FastifyInstance): void => {
    app.post(
      '/operators/apply',
      {
        schema: {
          tags: ['operators'],
          summary: 'Apply stored operators, in the given order, to a document',
          body: applyRequestSchema,
          response: { 200: envelopeSchema(payloadOf('MappedDocument', mappedDocumentSchema)) },
        },
      },
      async (request) => success('MappedDocument', await service.apply(requireObjectBody(request.body))),
    );
  };
}
