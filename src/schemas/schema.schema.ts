import { Type, type Static } from '@sinclair/typebox';
import { messages, Nullable, OptionalId } from '../shared/body-schema.js';

/**
 * The Schema body of interface §2 with the messages of cap-behaviour.md §4.2 (typos corrected) and the
 * limits it lacked, each written once: Fastify validates it, OpenAPI documents it, the service receives
 * its type. Whether the namespace is an http(s) IRI, and each property's rules (reported per property
 * number, "Property 3 requires a uri"), are checked in schema.ts.
 */

/** Lengths and counts of a schema's text, written once for the schema below and the checks of schema.ts. */
export const LIMITS = {
  name: 255,
  namespace: 2000,
  uri: 2000,
  label: 500,
  properties: 2000,
} as const;

/** OpenAPI shape of a property: an absolute http(s) IRI and its label. */
export const propertySchema = Type.Object({
  uri: Type.String({ maxLength: LIMITS.uri, description: 'an absolute http or https IRI' }),
  label: Type.String({ minLength: 1, maxLength: LIMITS.label }),
});

export const SchemaBody = Type.Object({
  id: OptionalId,
  name: Type.String({
    minLength: 2,
    maxLength: LIMITS.name,
    ...messages({
      required: 'A schema requires a name',
      minlength: 'Names must be at least 2 characters long.',
      maxlength: `Names must be at most ${LIMITS.name} characters long.`,
      type: 'A schema name must be a string',
    }),
  }),
  abbreviation: Type.String({
    minLength: 2,
    maxLength: 8,
    // It becomes a SPARQL prefix (`PREFIX dc: <…>`), so it must be a valid PN_PREFIX; the ASCII subset
    // keeps it portable to every SPARQL engine.
    pattern: '^[A-Za-z][A-Za-z0-9_-]*$',
    description: 'unique; used as the SPARQL prefix of the namespace',
    ...messages({
      required: 'A schema requires an abbreviation',
      minlength: 'Abbreviations must be at least 2 characters long.',
      maxlength: 'Abbreviations must be at most 8 characters long.',
      pattern:
        'An abbreviation must start with a letter and hold only letters, digits, "-" and "_" (it is used as a SPARQL prefix)',
      type: 'A schema abbreviation must be a string',
    }),
  }),
  namespace: Type.String({
    maxLength: LIMITS.namespace,
    description: 'http or https',
    ...messages({
      required: 'A schema requires a namespace',
      maxlength: `A namespace must be at most ${LIMITS.namespace} characters long.`,
      type: 'A schema namespace must be a string',
    }),
  }),
  properties: Type.Optional(
    Nullable(
      Type.Array(Type.Unknown(), {
        description: `{"uri", "label"} objects (at most ${LIMITS.properties}); null or missing means none; a PUT replaces the whole list`,
        ...messages({ type: 'Properties must be a list of {"uri", "label"} objects' }),
      }),
    ),
  ),
});
export type SchemaBody = Static<typeof SchemaBody>;
