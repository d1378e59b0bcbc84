import type { FastifyInstance } from 'fastify';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { mappedDocumentSchema } from './operator.api.js';
import { ApplyBody } from './operator-apply.schema.js';
import type { OperatorApplyService } from './operator-apply.service.js';

/** POST /operators/apply (DECISIONS.md §4), ADMIN like every operator write (the workbench's "Try it" panel). */
export function operatorApplyRoutes(service: OperatorApplyService) {
  return (app: FastifyInstance): void => {
    app.post(
      '/operators/apply',
      {
        schema: {
          tags: ['operators'],
          summary: 'Apply stored operators, in the given order, to a document',
          body: ApplyBody,
          response: { 200: envelopeSchema(payloadOf('MappedDocument', mappedDocumentSchema)) },
        },
      },
      // Answered in the same turn when the service needs to read nothing (OperatorApplyService.apply).
      (request) => {
        const mapped = service.apply(checkedBody(request, ApplyBody));
        return mapped instanceof Promise
          ? mapped.then((document) => success('MappedDocument', document))
          : success('MappedDocument', mapped);
      },
    );
  };
}
