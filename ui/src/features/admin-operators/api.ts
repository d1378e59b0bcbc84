import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';

/** Keys of this feature. */
export const operatorKeys = {
  all: ['operators'] as const,
  list: () => [...operatorKeys.all, 'list'] as const,
  types: () => [...operatorKeys.all, 'types'] as const,
};

/** GET /operators, sorted by name (ADMIN); the list's key is `ArrayList<ConstantOp>` whatever it holds. */
async function listOperators() {
  return payload(await api.GET('/operators'), 'ArrayList<ConstantOp>');
}

export const operatorsQuery = () => queryOptions({ queryKey: operatorKeys.list(), queryFn: listOperators });

/** GET /operators/types. */
export const operatorTypesQuery = () =>
  queryOptions({
    queryKey: operatorKeys.types(),
    queryFn: async () => payload(await api.GET('/operators/types'), 'ArrayList<OperatorType>'),
    staleTime: Infinity,
  });

export type Operator = Awaited<ReturnType<typeof listOperators>>[number];
export type OperatorType = Operator['type'];

/** What an operator carries besides its name and field, by type (src/operators/operator.schema.ts). */
export const CARRIES: Readonly<Record<OperatorType, { value?: string; regex?: true; mapping?: true }>> = {
  CONSTANT_OP: { value: 'Value' },
  DEFAULT_OP: { value: 'Default value' },
  TEMPLATE_OP: { value: 'Template' },
  DATE_NORMALIZATION_OP: { value: 'Date pattern' },
  REGEX_REPLACE_OP: { value: 'Replacement', regex: true },
  MAPPING_OP: { mapping: true },
  BASE_64_ENCODE_OP: {},
  APPLICATION_TYPE_OP: {},
};

export interface OperatorInput {
  id: number | null;
  type: OperatorType;
  name: string;
  field: string;
  value?: string;
  regex?: string;
  mapping?: Record<string, string>;
}

/** POST (no id) or PUT (with id; the type cannot change) /operators. */
export function useSaveOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: OperatorInput) => {
      done(
        input.id === null
          ? await api.POST('/operators', { body: input })
          : await api.PUT('/operators', { body: input }),
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorKeys.list() }),
  });
}

/** DELETE /operators {id, type}. */
export function useDeleteOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (operator: { id: number; type: OperatorType }) =>
      done(await api.DELETE('/operators', { body: operator })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: operatorKeys.list() }),
  });
}

/** POST /operators/apply: the operators, in the given order, applied to a document. */
export function useApplyOperators() {
  return useMutation({
    mutationFn: async (input: { operators: number[]; document: Record<string, string[] | string> }) =>
      payload(await api.POST('/operators/apply', { body: input }), 'MappedDocument'),
  });
}
