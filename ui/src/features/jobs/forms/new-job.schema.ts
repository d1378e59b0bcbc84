import { z } from 'zod';

export const JOB_KINDS = ['MAPPING', 'FIXITY'] as const;
export const JOB_SCOPES = ['RESOURCE', 'CHILDREN', 'SUBTREE'] as const;
export const MAX_JOB_OPERATORS = 100;

/** The new-job form (DECISIONS.md §9): the view as the Select's string value, operators in run order. */
export const newJobSchema = z
  .object({
    repositoryViewId: z.string().regex(/^[1-9]\d*$/, 'Choose a repository view'),
    contextUri: z.string().trim().max(2000, 'The resource must be at most 2000 characters long'),
    kind: z.enum(JOB_KINDS, 'Choose MAPPING or FIXITY'),
    scope: z.enum(JOB_SCOPES, 'Choose a scope'),
    operators: z
      .array(z.number().int().positive())
      .max(MAX_JOB_OPERATORS, `A job runs at most ${MAX_JOB_OPERATORS} operators`),
  })
  .superRefine((values, context) => {
    if (values.kind === 'MAPPING' && values.operators.length === 0)
      context.addIssue({ code: 'custom', path: ['operators'], message: 'Add at least one operator' });
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

/** The POST /curation-job body the form's values make: FIXITY carries no operators; MAPPING previews. */
export function newJobBody(values: NewJobValues) {
  return {
    repositoryViewId: Number(values.repositoryViewId),
    contextUri: values.contextUri.trim(),
    kind: values.kind,
    scope: values.scope,
    ...(values.kind === 'MAPPING' ? { operators: values.operators, dryRun: true } : {}),
  };
}
