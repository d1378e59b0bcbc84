import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';

/** Keys of this feature. */
export const internalMetadataKeys = {
  all: ['internal-metadata'] as const,
  list: () => [...internalMetadataKeys.all, 'list'] as const,
};

/** GET /internal/metadata, sorted by gloss (ADMIN). */
async function listInternalMetadata() {
  return payload(await api.GET('/internal/metadata'), 'ArrayList<InternalMetadata>');
}

export const internalMetadataQuery = () =>
  queryOptions({ queryKey: internalMetadataKeys.list(), queryFn: listInternalMetadata });

export type InternalMetadatum = Awaited<ReturnType<typeof listInternalMetadata>>[number];

export interface InternalMetadatumInput {
  id: number | null;
  field: string;
  gloss: string;
  required: boolean;
}

/** POST (no id) or PUT (with id) /internal/metadata. */
export function useSaveInternalMetadatum() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: InternalMetadatumInput) =>
      input.id === null
        ? payload(await api.POST('/internal/metadata', { body: input }), 'InternalMetadata')
        : payload(await api.PUT('/internal/metadata', { body: input }), 'InternalMetadata'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: internalMetadataKeys.all }),
  });
}

/** DELETE /internal/metadata {id}. */
export function useDeleteInternalMetadatum() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => done(await api.DELETE('/internal/metadata', { body: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: internalMetadataKeys.all }),
  });
}
