import { Type, type Static } from '@sinclair/typebox';
import { Id, messages, Nullable, OptionalId, PathId } from '../shared/body-schema.js';
import { FEDORA_DIALECTS } from '../shared/fedora-dialect.js';
import { REPOSITORY_KINDS } from './repository-view.js';

/**
 * The RepositoryView body of interface §4.3 with the rules of cap-behaviour.md §4.1 (wording corrected),
 * each limit and message written once: Fastify validates it, OpenAPI documents it, the service receives
 * its type. The URI's form and the references' existence are checked by the service.
 */

const Name = Type.String({
  minLength: 2,
  maxLength: 255,
  ...messages({
    required: 'A repository view requires a name',
    minlength: "A repository view's name must be at least 2 characters long",
    maxlength: "A repository view's name must be at most 255 characters long",
    type: "A repository view's name must be a string",
  }),
});

/** A credential: null/absent or "" means none; otherwise 2–255 characters. */
function credential(property: 'username' | 'password') {
  return Type.Optional(
    Nullable(
      Type.Union([
        Type.String({
          minLength: 2,
          maxLength: 255,
          ...messages({
            minlength: `A repository view's ${property} must be at least 2 characters long`,
            maxlength: `A repository view's ${property} must be at most 255 characters long`,
            type: `A repository view's ${property} must be a string`,
          }),
        }),
        Type.Literal(''),
      ]),
    ),
  );
}

/** `[{id}, …]` (full objects are accepted; only `id` is read). Absent means "unchanged" on update. */
function idList(property: 'schemas' | 'curators') {
  return Type.Optional(
    Nullable(
      Type.Array(Type.Object({ id: Id }), {
        maxItems: 1000,
        ...messages({ type: `A repository view's ${property} must be a list of objects with an id` }),
      }),
    ),
  );
}

/** FEDORA only: the Fedora line to speak; null = detect. Absent on PUT keeps the stored one. */
const Dialect = Type.Optional(
  Nullable(
    Type.Union(
      FEDORA_DIALECTS.map((dialect) => Type.Literal(dialect)),
      messages({ type: "A repository view's dialect must be FEDORA_4, FEDORA_5 or FEDORA_6" }),
    ),
  ),
);

const properties = {
  id: OptionalId,
  type: Type.Union(
    REPOSITORY_KINDS.map((kind) => Type.Literal(kind)),
    messages({
      required: 'A repository view requires a type',
      type: `A repository view type must be one of ${REPOSITORY_KINDS.join(', ')}`,
    }),
  ),
  name: Name,
  rootUri: Type.String({
    maxLength: 2000,
    description: 'an absolute http(s) URL without credentials, query or fragment',
    ...messages({
      required: 'A repository view requires a URI',
      maxlength: "A repository view's URI must be at most 2000 characters long",
      type: "A repository view's URI must be a string",
    }),
  }),
  username: credential('username'),
  password: credential('password'),
  schemas: idList('schemas'),
  curators: idList('curators'),
  dialect: Dialect,
};

export const RepositoryViewBody = Type.Object(properties, {
  description:
    '`password` is write-only: answered as null; on PUT null keeps the stored one and "" clears it. ' +
    '`dialect` (FEDORA only): null detects the Fedora line, absent on PUT keeps the stored one.',
});
export type RepositoryViewBody = Static<typeof RepositoryViewBody>;

/** A view to verify, maybe unsaved: the path names its type, and a name is not needed. */
export const VerificationBody = Type.Object({
  ...Type.Omit(RepositoryViewBody, ['type', 'name']).properties,
  name: Type.Optional(Name),
});
export type VerificationBody = Static<typeof VerificationBody>;

const { dialect, ...beforePrefixes } = properties;

/**
 * The read model: the body plus what the service derives, in the wire order (the response is serialized
 * in this order): the interface's fields, `metadataPrefixes`, then the dialect fields of issue 11.
 */
export const repositoryViewSchema = Type.Object({
  ...beforePrefixes,
  metadataPrefixes: Type.Array(Type.String(), { readOnly: true }),
  dialect,
  detectedDialect: Type.Union(
    [Type.Union([...FEDORA_DIALECTS, 'LDP' as const].map((found) => Type.Literal(found))), Type.Null()],
    { readOnly: true, description: 'what detection found for the current configuration; null until it ran' },
  ),
});

/** `{type}` in a path (verification, the context routes): one of the repository kinds. */
export const RepositoryKindParameter = Type.Union(
  REPOSITORY_KINDS.map((kind) => Type.Literal(kind)),
  messages({ type: `Unknown repository view type; use ${REPOSITORY_KINDS.join(' or ')}` }),
);

/** A repository view's id in a path. */
export const RepositoryViewIdParameter = PathId('The repository view id must be a positive integer');
