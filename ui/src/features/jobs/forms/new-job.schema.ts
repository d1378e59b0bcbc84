import { z } from 'zod';

export const JOB_KINDS = ['MAPPING', 'FIXITY'] as const;
export const JOB_SCOPES = ['RESOURCE', 'CHILDREN', 'SUBTREE', 'QUERY', 'MEMBERS'] as const;
export type JobScope = (typeof JOB_SCOPES)[number];
export const MAX_JOB_OPERATORS = 100;
/** The query language's own limit (the service names the position of anything else wrong with it). */
export const MAX_JOB_QUERY_LENGTH = 1000;

/** The new-job form (DECISIONS.md §9): the view as the Select's string value, operators in run order. */
export const newJobSchema = z
  .object({
    repositoryViewId: z.string().regex(/^[1-9]\d*$/, 'Choose a repository view'),
    contextUri: z.string().trim().max(2000, 'The resource must be at most 2000 characters long'),
    kind: z.enum(JOB_KINDS, 'Choose MAPPING or FIXITY'),
    scope: z.enum(JOB_SCOPES, 'Choose a scope'),
    /** QUERY: the search whose hits are the job's resources (DECISIONS.md §12). */
    query: z
      .string()
      .trim()
      .max(MAX_JOB_QUERY_LENGTH, `A query is at most ${MAX_JOB_QUERY_LENGTH} characters long`),
    operators: z
      .array(z.number().int().positive())
      .max(MAX_JOB_OPERATORS, `A job runs at most ${MAX_JOB_OPERATORS} operators`),
  })
  .superRefine((values, context) => {
    if (values.kind === 'MAPPING' && values.operators.length === 0)
      context.addIssue({ code: 'custom', path: ['operators'], message: 'Add at least one operator' });
    if (values.scope === 'QUERY' && values.query === '')
      context.addIssue({ code: 'custom', path: ['query'], message: 'Enter the search query' });
  });

export type NewJobValues = z.infer<typeof newJobSchema>;

/**
 * The operators of `chosen` whose field is a bare name (`title`): they match nothing in a job, whose fields
 * are prefixed names (`dcterms:title`) or IRIs (both hold a colon), and the service refuses them.
 */
export function bareFieldOperators<T extends { readonly id: number; readonly field: string }>(
  chosen: readonly number[],
  operators: readonly T[],
): T[] {
  return operators.filter(
    (operator) =>
      chosen.includes(operator.id) && operator.field.trim() !== '' && !operator.field.includes(':'),
  );
}

/**
 * The POST /curation-job body the form's values make: FIXITY carries no operators; MAPPING previews; only a
 * QUERY scope carries the query.
 */
export function newJobBody(values: NewJobValues) {
  return {
    repositoryViewId: Number(values.repositoryViewId),
    contextUri: values.contextUri.trim(),
    kind: values.kind,
    scope: values.scope,
    ...(values.scope === 'QUERY' ? { query: values.query.trim() } : {}),
    ...(values.kind === 'MAPPING' ? { operators: values.operators, dryRun: true } : {}),
  };
}
