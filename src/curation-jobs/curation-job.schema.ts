import { Type, type Static } from '@sinclair/typebox';
import { Id, messages, Nullable } from '../shared/body-schema.js';
import { JOB_KINDS, JOB_SCOPES } from './curation-job.js';
import { JOB_STATES } from './job-states.js';
import { COPY_OUTCOMES, DIGEST_CHECKS } from '../copies/job-copies.js';

/**
 * The body of `POST /curation-job` (DECISIONS.md §9), each limit with its message: Fastify validates it,
 * OpenAPI documents it. Whether the view, the context and the operators fit together is the service's check.
 */
export const MAX_JOB_OPERATORS = 100;
/** The stored query's bound; the query language's own (shorter) limit is the parser's, with its position. */
export const MAX_JOB_QUERY_LENGTH = 2000;
/** Every kind but SPREADSHEET needs a scope; the service says so when it is missing. */
export const SCOPE_REQUIRED = 'A curation job requires a scope';

export const CurationJobBody = Type.Object(
  {
    repositoryViewId: Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      ...messages({
        required: 'A curation job requires a repositoryViewId',
        type: "A curation job's repositoryViewId must be a positive integer",
      }),
    }),
    contextUri: Type.String({
      maxLength: 2000,
      description: 'absolute, or relative to the view’s rootUri ("" is the root); must lie inside the root',
      ...messages({
        required: 'A curation job requires a contextUri',
        maxlength: "A curation job's contextUri must be at most 2000 characters long",
        type: "A curation job's contextUri must be a string",
      }),
    }),
    // Required for every kind but SPREADSHEET, whose resources are its sheet's rows (the service checks).
    scope: Type.Optional(
      Type.Union(
        JOB_SCOPES.map((scope) => Type.Literal(scope)),
        {
          description:
            'required, except for SPREADSHEET jobs (their rows are the resources; stored as SUBTREE)',
          ...messages({
            required: SCOPE_REQUIRED,
            type: `A curation job's scope must be one of ${JOB_SCOPES.join(', ')}`,
          }),
        },
      ),
    ),
    query: Type.Optional(
      Nullable(
        Type.String({
          maxLength: MAX_JOB_QUERY_LENGTH,
          description:
            'QUERY scope only: the search query (DECISIONS.md §12) whose hits within contextUri are the resources',
          ...messages({
            maxlength: `A curation job's query must be at most ${MAX_JOB_QUERY_LENGTH} characters long`,
            type: "A curation job's query must be a string",
          }),
        }),
      ),
    ),
    kind: Type.Union(
      JOB_KINDS.map((kind) => Type.Literal(kind)),
      messages({
        required: 'A curation job requires a kind',
        type: `A curation job's kind must be one of ${JOB_KINDS.join(', ')}`,
      }),
    ),
    operators: Type.Optional(
      Nullable(
        Type.Array(Id, {
          maxItems: MAX_JOB_OPERATORS,
          description: 'MAPPING: the ids of stored operators, in the order they run; FIXITY and INDEX: none',
          ...messages({
            type: `A curation job's operators must be a list of at most ${MAX_JOB_OPERATORS} operator ids`,
          }),
        }),
      ),
    ),
    spreadsheet: Type.Optional(
      Nullable(
        Type.String({
          description:
            'SPREADSHEET: the sheet as CSV text (DECISIONS.md §13), as GET …/export writes it; or upload it as the multipart part file',
          ...messages({ type: "A curation job's spreadsheet must be CSV text (a string)" }),
        }),
      ),
    ),
    format: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 20,
          description: 'EXPORT only: the package format, "BAGIT" (a BagIt 1.0 bag, DECISIONS.md §15)',
          ...messages({
            maxlength: "A curation job's format must be BAGIT",
            type: "A curation job's format must be a string (BAGIT)",
          }),
        }),
      ),
    ),
    targetRepositoryViewId: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 1,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'COPY only: the view to copy into (DECISIONS.md §16); the caller must curate it too',
          ...messages({
            type: "A curation job's targetRepositoryViewId must be a positive integer",
          }),
        }),
      ),
    ),
    targetContextUri: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          description:
            'COPY only: the container the copies go under, absolute or relative to the target view’s rootUri ("" is the root)',
          ...messages({
            maxlength: "A curation job's targetContextUri must be at most 2000 characters long",
            type: "A curation job's targetContextUri must be a string",
          }),
        }),
      ),
    ),
    dryRun: Type.Optional(
      Nullable(
        Type.Boolean({
          description:
            'MAPPING, SPREADSHEET and COPY: true (the default) previews only; false applies at once. FIXITY and INDEX: false',
          ...messages({ type: "A curation job's dryRun must be true or false" }),
        }),
      ),
    ),
  },
  { description: 'A curation job to start (DECISIONS.md §9).' },
);
export type CurationJobBody = Static<typeof CurationJobBody>;

const progressSchema = {
  type: 'object',
  properties: {
    total: { type: 'integer' },
    done: { type: 'integer' },
    changed: {
      type: 'integer',
      description:
        'MAPPING: resources that change; FIXITY: binaries checked SUCCESS; INDEX: documents written into the search index',
    },
    failed: { type: 'integer' },
  },
};

const nullableInteger = { type: ['integer', 'null'] };

/** The read model `CurationJob`, keys in the wire order. */
export const curationJobSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: [...JOB_KINDS] },
    state: { type: 'string', enum: [...JOB_STATES] },
    repositoryViewId: { type: 'integer' },
    contextUri: { type: 'string' },
    scope: { type: 'string', enum: [...JOB_SCOPES] },
    query: { type: ['string', 'null'], description: 'QUERY scope: the query; null for other scopes' },
    spreadsheet: {
      type: ['object', 'null'],
      description:
        'SPREADSHEET: the imported sheet (data rows, metadata column headers in order); null for other kinds',
      properties: {
        rows: { type: 'integer' },
        columns: { type: 'array', items: { type: 'string' } },
      },
    },
    format: {
      type: ['string', 'null'],
      description: 'EXPORT: the package format (BAGIT); null for other kinds',
    },
    targetRepositoryViewId: {
      type: ['integer', 'null'],
      description: 'COPY: the view the job copies into; null for other kinds',
    },
    targetContextUri: {
      type: ['string', 'null'],
      description: 'COPY: the container (absolute IRI) the copies go under; null for other kinds',
    },
    operators: { type: 'array', items: { type: 'integer' } },
    dryRun: { type: 'boolean' },
    createdBy: { type: 'integer' },
    created: { type: 'integer', description: 'epoch milliseconds' },
    started: nullableInteger,
    finished: nullableInteger,
    progress: progressSchema,
    message: { type: ['string', 'null'] },
  },
};

const tripleSchema = {
  type: 'object',
  properties: { subject: { type: 'string' }, predicate: { type: 'string' }, object: { type: 'string' } },
};

export const resourceChangeSchema = {
  type: 'object',
  properties: {
    contextUri: { type: 'string' },
    removed: { type: 'array', items: tripleSchema },
    added: { type: 'array', items: tripleSchema },
    error: { type: ['string', 'null'] },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'each value an operator could not transform (a date DATE_NORMALIZATION_OP cannot read), which the job keeps as it is',
    },
    removals: {
      type: 'array',
      items: tripleSchema,
      description:
        'pure removals: the triples of removed that nothing in added replaces (within a predicate, the removed values beyond the number it adds)',
    },
    row: {
      type: ['integer', 'null'],
      description:
        'SPREADSHEET: the sheet row the change comes from (header = row 1); null for other kinds. A row that creates a child has contextUri "+" (its triples\' subject too) until applied, then the created resource',
    },
  },
};

export const fixityResultSchema = {
  type: 'object',
  properties: {
    contextUri: { type: 'string' },
    status: { type: 'string', description: 'SUCCESS, BAD_CHECKSUM, BAD_SIZE or ERROR' },
    messageDigest: { type: ['string', 'null'] },
    size: { type: ['string', 'null'] },
    error: { type: ['string', 'null'] },
  },
};

/** One row of a COPY job's report (DECISIONS.md §16, src/copies/job-copies.ts `CopyResult`). */
export const copyResultSchema = {
  type: 'object',
  properties: {
    sourceUri: { type: 'string' },
    targetUri: { type: 'string', description: 'where the copy is (or would be)' },
    kind: { type: 'string', enum: ['CONTAINER', 'BINARY'] },
    bytes: { type: ['integer', 'null'], description: "a binary's size; null for containers" },
    digestAlgorithm: {
      type: ['string', 'null'],
      description: 'sha1, sha-256 or sha-512: what the bytes were compared with; null for containers',
    },
    digestCheck: {
      type: ['string', 'null'],
      enum: [...DIGEST_CHECKS, null],
      description: 'how the bytes compared on arrival (binaries, once applied); null otherwise',
    },
    outcome: { type: 'string', enum: [...COPY_OUTCOMES] },
    error: { type: ['string', 'null'], description: 'why it is CONFLICT, FAILED, KEPT or UNREADABLE' },
  },
};
