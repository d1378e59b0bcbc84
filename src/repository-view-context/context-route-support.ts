// What every context route module shares. Its own module so that context.routes.ts, which registers the
// resource and transaction routes, and those modules do not import each other (issue 9: no import cycles).
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../http/access.js';
import { envelopeSchema, type JsonSchema } from '../http/schemas.js';
import { contextParams, contextQuery } from './context.api.js';
import type { ContextService, ContextSession } from './context.service.js';

export const PREFIX = '/repository-view-context/:type/:repositoryViewId';
const tags = ['repository view context'];

export interface ContextRequest {
  Params: { type: string; repositoryViewId: string };
  Querystring: { contextUri?: string; value?: string; name?: string };
}

export function sessionOf(
  service: ContextService,
  request: FastifyRequest<ContextRequest>,
  contextUri = request.query.contextUri,
): Promise<ContextSession> {
  return service.open(request.params.type, request.params.repositoryViewId, contextUri, principalOf(request));
}

export function schemaFor(
  summary: string,
  payload: JsonSchema | undefined,
  body?: JsonSchema,
): Record<string, unknown> {
  return {
    tags,
    summary,
    params: contextParams,
    querystring: contextQuery,
    ...(body === undefined ? {} : { body }),
    response: { 200: envelopeSchema(payload) },
  };
}
