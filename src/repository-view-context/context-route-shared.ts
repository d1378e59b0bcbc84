// What every context route module shares. Its own module so that context.routes.ts, which registers the
// resource and transaction routes, and those modules do not import each other (issue 9: no import cycles).
import type { Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../http/access.js';
import { envelopeSchema, type JsonSchema } from '../http/schemas.js';
import { ContextParams, ContextQuery } from './context.api.js';
import type { ContextService, ContextSession } from './context.service.js';

export const PREFIX = '/repository-view-context/:type/:repositoryViewId';
const tags = ['repository view context'];

export interface ContextRequest {
  Params: Static<typeof ContextParams>;
  Querystring: Static<typeof ContextQuery>;
}

export function sessionOf(
  service: ContextService,
  request: FastifyRequest<ContextRequest>,
  contextUri = request.query.contextUri,
): Promise<ContextSession> {
  return service.open(
    request.params.type,
    request.params.repositoryViewId,
    contextUri,
    principalOf(request),
    request.id,
  );
}

export function schemaFor(
  summary: string,
  payload: JsonSchema | undefined,
  body?: JsonSchema,
): Record<string, unknown> {
  return {
    tags,
    summary,
    params: ContextParams,
    querystring: ContextQuery,
    ...(body === undefined ? {} : { body }),
    response: { 200: envelopeSchema(payload) },
  };
}
