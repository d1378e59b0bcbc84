import { FormatRegistry, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { MESSAGES, type PropertyMessages } from './body-schema.js';
import { businessMessages } from './business-messages.js';
import { BadRequestError, ValidationFailedError } from './errors.js';
import { ValidationCollector, type IdCheck } from './validation.js';

type Body = Readonly<Record<string, unknown>>;

/**
 * A request body after its schema's check: every structural failure is already in `collector`, where the
 * service adds its business failures so that all of them are reported together (DECISIONS.md §3).
 */
export class CheckedBody<T extends object> {
  constructor(
    private readonly raw: Body,
    readonly collector = new ValidationCollector(),
  ) {}

  /**
   * Checks the same body against a further schema, e.g. the properties a discriminator selects,
   * collecting its failures with the others.
   */
  and<S extends TObject>(schema: S): CheckedBody<T & Static<S>> {
    const check = compiledCheck(schema);
    const errors = check.Check(this.raw) ? [] : [...check.Errors(this.raw)];
    return checkedFromErrors(schema, this.raw, errors, this.collector) as CheckedBody<T & Static<S>>;
  }

  /** Whether the property passed its schema (and no later check of the service failed it). */
  passed(property: keyof T & string): boolean {
    return !this.collector.hasCategory(property);
  }

  /** A property's value when it passed; undefined when absent or failed. */
  get<K extends keyof T & string>(property: K): T[K] | undefined {
    return this.passed(property) ? (this.raw[property] as T[K]) : undefined;
  }

  /** The whole body as its schema types it, when no property failed. */
  get value(): T | undefined {
    return this.collector.hasPropertyFailures ? undefined : (this.raw as T);
  }
}

interface WithId {
  id?: number | null;
}

/** The body's `id`: absent (null or missing), valid, or invalid (its `type` failure is already collected). */
export function idOf(body: CheckedBody<WithId>): IdCheck {
  if (!body.passed('id')) return { kind: 'invalid' };
  const id = body.get('id');
  return id === undefined || id === null ? { kind: 'absent' } : { kind: 'valid', id };
}

/**
 * The id of a DELETE body (DECISIONS.md §3: only the id is needed): INVALID `business.DELETE`
 * `<Entity> requires an id` without one, `id.type` for a malformed one.
 */
export function deleteId(body: CheckedBody<WithId>, entity: string): number {
  const id = idOf(body);
  if (id.kind === 'absent') body.collector.business('DELETE', businessMessages.requiresId(entity));
  if (id.kind !== 'valid') throw new ValidationFailedError(body.collector.results());
  return id.id;
}

// JSON Schema's `iri` format (an absolute IRI), which TypeBox does not know: without it, a schema naming
// the format would refuse every value.
if (!FormatRegistry.Has('iri')) FormatRegistry.Set('iri', (value) => URL.canParse(value));

/** Compiled checks, one per schema object (schemas are module constants). */
const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function compiledCheck(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** Checks a body outside a route (CLI, tests, nested bodies) with the same schema Fastify uses. */
export function checkBody<S extends TObject>(schema: S, body: unknown): CheckedBody<Static<S>> {
  const check = compiledCheck(schema);
  return checkedFromErrors(schema, body, check.Check(body) ? [] : [...check.Errors(body)]);
}

/**
 * Turns the schema's errors into ValidationResults entries: category = the top-level property, key and text
 * from the property's `x-messages`. A body that is not an object at all is a 400, as before validation
 * existed (there is no property to report it under).
 */
export function checkedFromErrors<S extends TObject>(
  schema: S,
  body: unknown,
  errors: readonly ValueError[],
  collector = new ValidationCollector(),
): CheckedBody<Static<S>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestError('The request body must be a JSON object');
  }
  const checked = new CheckedBody<Static<S>>(body as Body, collector);
  if (errors.length === 0) return checked;
  const byProperty = new Map<string, ValueError[]>();
  for (const error of errors) {
    const property = propertyOf(error.path);
    if (property === undefined) throw new BadRequestError('The request body must be a JSON object');
    byProperty.set(property, [...(byProperty.get(property) ?? []), error]);
  }
  // Reported in the schema's property order, whatever order the checks ran in.
  for (const property of Object.keys(schema.properties)) {
    const failures = byProperty.get(property);
    if (failures === undefined) continue;
    const text = messagesOf(schema.properties[property]);
    const value = (body as Body)[property];
    if (value === undefined || value === null) {
      checked.collector.add(property, 'required', text?.required ?? text?.type ?? 'A value is required');
      continue;
    }
    for (const failure of failures) {
      // Inside a list or an object the property as a whole is of the wrong kind, whatever failed within.
      const nested = failure.path.split('/').length > 2;
      for (const key of nested ? (['type'] as const) : keysOf(failure)) {
        checked.collector.add(property, key, messageFor(text, key, failure.message));
      }
    }
  }
  return checked;
}

/**
 * One property's failure worded as its `x-messages` word it (a path or query parameter, http/parameters.ts):
 * absent → `required`, else the failure's key; the validator's own text when the property has no messages.
 */
export function failureMessage(property: TSchema | undefined, value: unknown, failure: ValueError): string {
  const text = messagesOf(property);
  if (value === undefined) return text?.required ?? text?.type ?? failure.message;
  const [key = 'type'] = keysOf(failure);
  return messageFor(text, key, failure.message);
}

type Key = 'required' | 'minlength' | 'maxlength' | 'pattern' | 'type';

/** The errors with a key of their own; any other (a wrong JSON type, a value outside its enum or range) is `type`. */
const KEY_BY_ERROR: Partial<Record<ValueErrorType, Key>> = {
  [ValueErrorType.ObjectRequiredProperty]: 'required',
  [ValueErrorType.StringMinLength]: 'minlength',
  [ValueErrorType.StringMaxLength]: 'maxlength',
  [ValueErrorType.StringPattern]: 'pattern',
};

/** The ValidationResults keys of one error; a union (e.g. Nullable) reports its first, non-null variant's. */
function keysOf(error: ValueError): Key[] {
  if (error.type === ValueErrorType.Union) {
    const [first] = error.errors;
    const keys = first === undefined ? [] : [...first].flatMap(keysOf);
    return keys.length === 0 ? ['type'] : keys;
  }
  return [KEY_BY_ERROR[error.type] ?? 'type'];
}

function messageFor(text: PropertyMessages | undefined, key: Key, fallback: string): string {
  if (text === undefined) return fallback;
  if (key === 'type') return text.type;
  return text[key] ?? text.required ?? text.type;
}

function messagesOf(schema: TSchema | undefined): PropertyMessages | undefined {
  if (schema === undefined) return undefined;
  const own = (schema as Record<string, unknown>)[MESSAGES] as PropertyMessages | undefined;
  if (own !== undefined) return own;
  const variants = (schema as { anyOf?: TSchema[] }).anyOf;
  return variants === undefined ? undefined : messagesOf(variants[0]);
}

/** `/gloss` → `gloss`; `/operators/0` → `operators`; the body itself (``) has no property. */
function propertyOf(path: string): string | undefined {
  const [, first] = path.split('/');
  return first === undefined || first === '' ? undefined : first.replaceAll('~1', '/').replaceAll('~0', '~');
}
