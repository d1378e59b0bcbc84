import { Type, type TSchema, type TUnion, type TNull } from '@sinclair/typebox';

/**
 * The schema annotation carrying a property's ValidationResults messages (interface §2/§7), keyed as the
 * INVALID payload keys them. A `x-` keyword: validators ignore it and OpenAPI keeps it as an extension,
 * so each limit and its message are written once, side by side.
 */
export const MESSAGES = 'x-messages';

export interface PropertyMessages {
  /** Absent or null; also the fallback for a limit without its own message. */
  readonly required?: string;
  readonly minlength?: string;
  readonly maxlength?: string;
  readonly pattern?: string;
  /** The wrong JSON type, or a value outside its enum or range. */
  readonly type: string;
}

/** Options fragment attaching the messages to a property schema: `Type.String({ …, ...messages({…}) })`. */
export function messages(text: PropertyMessages): { readonly [MESSAGES]: PropertyMessages } {
  return { [MESSAGES]: text };
}

/** A property that may also be null; the first variant carries the limits and the messages. */
export function Nullable<T extends TSchema>(schema: T): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()]);
}

/** An entity id: a positive safe integer (a larger one would not survive JSON numbers). */
export const Id = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'null on create; assigned by the service',
  ...messages({ type: 'An id must be a positive integer' }),
});

/** An id in a path: a positive safe integer, `message` when it is anything else (http/parameters.ts). */
export function PathId(message: string) {
  return Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...messages({ type: message }) });
}

/** The parameters of a path ending in `/{id}`. */
export function idParams(message: string) {
  return Type.Object({ id: PathId(message) });
}

/** The `id` property of a create/update body: null or absent on create, required by the service on update. */
export const OptionalId = Type.Optional(Nullable(Id));

/** A DELETE body: only `id` is used, other properties are ignored (DECISIONS.md §3). */
export const IdBody = Type.Object(
  { id: OptionalId },
  { description: 'Only `id` is used; other properties are ignored.' },
);
