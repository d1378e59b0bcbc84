import type { Static, TObject } from '@sinclair/typebox';
import { KindGuard } from '@sinclair/typebox';
import type { ValueError } from '@sinclair/typebox/errors';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { checkedFromErrors, compiledCheck, type CheckedBody } from '../shared/body-check.js';
import { parameterValidator } from './parameters.js';

/** A TypeBox body schema's failures, attached to the request (attachValidation) for the handler to report. */
export class BodyValidationError extends Error {
  constructor(readonly errors: readonly ValueError[]) {
    super('The request body failed its schema');
  }
}

/**
 * Fastify's validator compiler. Path parameters and query strings are validated, and their integers
 * coerced, by their TypeBox schema (http/parameters.ts). A TypeBox body (defined schema-first) is checked
 * with TypeBox's compiled check, collecting every failure; a body is never coerced nor given defaults.
 * Other body schemas only describe the API for OpenAPI: the service parses that input with its own
 * messages.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, method, url }) => {
  if (httpPart === 'params' || httpPart === 'querystring')
    return parameterValidator(schema, httpPart, `${method} ${url}`);
  if (!KindGuard.IsSchema(schema)) return (data: unknown) => ({ value: data });
  const check = compiledCheck(schema);
  return (data: unknown) =>
    check.Check(data) ? { value: data } : { error: new BodyValidationError([...check.Errors(data)]) };
};

/** Whether a route schema is defined schema-first, so its failures must reach the handler (server.ts). */
export function isSchemaFirst(schema: unknown): boolean {
  return KindGuard.IsSchema(schema);
}

/**
 * The route's body with its schema failures as ValidationResults entries (or a 400 when it is not an
 * object); the service adds its business checks to the same collector.
 */
export function checkedBody<S extends TObject>(request: FastifyRequest, schema: S): CheckedBody<Static<S>> {
  const failure = request.validationError;
  if (failure !== undefined && !(failure instanceof BodyValidationError)) throw failure;
  return checkedFromErrors(schema, request.body, failure?.errors ?? []);
}
