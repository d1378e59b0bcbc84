import { KindGuard, type TObject, type TSchema } from '@sinclair/typebox';
import { failureMessage, compiledCheck } from '../shared/body-check.js';
import { BadRequestError } from '../shared/errors.js';

/**
 * Path parameters and query strings, validated and typed by their route's TypeBox schema (issue 27,
 * finding 7): a handler and its service receive numbers, never the URL's text. A malformed or missing
 * value is a 400 ERROR naming the parameter (DECISIONS.md §2), with the text of the property's
 * `x-messages`; an unknown id in a well-formed path stays the service's 404.
 */
export type ParameterPart = 'params' | 'querystring';

type Parameters = Readonly<Record<string, unknown>>;

/**
 * The URL carries text: where the schema says integer, decimal digits become that number (a sign kept so
 * that `-1` fails its range, not its type), where it says boolean, `true` and `false` become that boolean,
 * and nothing else converts — `1e3`, `0x10`, ` 7`, `1.5` and `yes` stay text and fail. An empty query value counts as absent (`?limit=` asks for the default), and an absent
 * property takes its schema's `default`.
 */
function coerce(schema: TObject, data: Parameters): Record<string, unknown> {
  const value: Record<string, unknown> = { ...data };
  for (const [name, property] of Object.entries(schema.properties))
    value[name] = coerced(property, value[name]);
  return value;
}

function coerced(property: TSchema, given: unknown): unknown {
  if (given === '' && !KindGuard.IsString(property)) return defaultOf(property);
  if (typeof given === 'string' && KindGuard.IsInteger(property) && /^-?\d{1,20}$/.test(given))
    return Number(given);
  // `true` and `false` exactly: a flag such as `?bom=true` or `?facets=false` (nothing else converts).
  if (KindGuard.IsBoolean(property) && (given === 'true' || given === 'false')) return given === 'true';
  return given ?? defaultOf(property);
}

function defaultOf(property: TSchema): unknown {
  return (property as { default?: unknown }).default;
}

/** Fastify's validator for one route's path parameters or query string (http/validation-errors.ts). */
export function parameterValidator(
  schema: unknown,
  part: ParameterPart,
  route: string,
): (data: unknown) => { value: unknown } | { error: Error } {
  // Describe-only parameters reached the services as text; every route's parameters now validate.
  if (!KindGuard.IsObject(schema))
    throw new Error(`The ${part} schema of ${route} must be a TypeBox object (http/parameters.ts)`);
  const check = compiledCheck(schema);
  return (data) => {
    const value = coerce(schema, (data ?? {}) as Parameters);
    if (check.Check(value)) return { value };
    const [failure] = check.Errors(value);
    const name = failure?.path.split('/')[1] ?? '';
    const property: TSchema | undefined = schema.properties[name];
    return {
      error: new BadRequestError(
        failure === undefined
          ? `Malformed ${part === 'params' ? 'path' : 'query'} parameters`
          : failureMessage(property, value[name], failure),
      ),
    };
  };
}
