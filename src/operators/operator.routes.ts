import type { FastifyInstance } from 'fastify';
import { emptySuccess, JSON_CONTENT_TYPE, success, successJson } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { entityOf, toOperatorJson, type Operator } from './operator.js';
import { operatorSchema, operatorTypeSchema } from './operator.api.js';
import { OperatorBody, OperatorDeleteBody } from './operator.schema.js';
import type { OperatorService } from './operator.service.js';

// Stable keys (DECISIONS.md §2): the list is `ArrayList<ConstantOp>` whatever types it holds.
const LIST_KEY = 'ArrayList<ConstantOp>';
const TYPES_KEY = 'ArrayList<OperatorType>';
const tags = ['operators'];

/** A single operator goes under its entity name (`ConstantOp`, `RegexReplaceOp`, …). */
function one(operator: Operator) {
  return success(entityOf(operator.type), toOperatorJson(operator));
}

/** Interface §4.2: reads CURATOR (MAPPING jobs run operators), writes ADMIN (http/permissions.ts). */
export function operatorRoutes(service: OperatorService) {
  /** The wire form of the last list, by the service's array it came from (the same while unchanged). */
  let listed: { readonly from: readonly Operator[]; readonly json: readonly object[] } | undefined;
  const listJson = (operators: readonly Operator[]): readonly object[] => {
    if (listed?.from !== operators)
      listed = { from: operators, json: Object.freeze(operators.map(toOperatorJson)) };
    return listed.json;
  };

  return (app: FastifyInstance): void => {
    const single = envelopeSchema({
      type: 'object',
      description: 'one key: the entity name, e.g. ConstantOp',
    });

    app.get(
      '/operators',
      {
        schema: {
          tags,
          summary: 'List all operators, sorted by name',
          response: { 200: envelopeSchema(payloadOf(LIST_KEY, { type: 'array', items: operatorSchema })) },
        },
      },
      // The service answers the same frozen list while nothing changed, so its wire form and JSON are
      // reused too (successJson keeps a frozen value's serialization).
      async (_request, reply) =>
        reply.type(JSON_CONTENT_TYPE).send(successJson(LIST_KEY, listJson(await service.list()))),
    );
    app.get(
      '/operators/types',
      {
        schema: {
          tags,
          summary: 'List operator types',
          response: {
            200: envelopeSchema(payloadOf(TYPES_KEY, { type: 'array', items: operatorTypeSchema })),
          },
        },
      },
      () => success(TYPES_KEY, service.types()),
    );
    app.post(
      '/operators',
      { schema: { tags, summary: 'Create', body: OperatorBody, response: { 200: single } } },
      async (request) => one(await service.create(checkedBody(request, OperatorBody))),
    );
    app.put(
      '/operators',
      {
        schema: {
          tags,
          summary: 'Update (id required; type cannot change)',
          body: OperatorBody,
          response: { 200: single },
        },
      },
      async (request) => one(await service.update(checkedBody(request, OperatorBody))),
    );
    app.delete(
      '/operators',
      {
        schema: {
          tags,
          summary: 'Delete by id',
          body: OperatorDeleteBody,
          response: { 200: envelopeSchema() },
        },
      },
      async (request) => {
        await service.delete(checkedBody(request, OperatorDeleteBody));
        return emptySuccess();
      },
    );
  };
}
