import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';

/** Keys of this feature; the root 'schemas' is the one app/live-events.ts invalidates. */
export const schemaKeys = {
  all: ['schemas'] as const,
  list: () => [...schemaKeys.all, 'list'] as const,
  properties: (namespace: string) => [...schemaKeys.all, 'properties', namespace] as const,
};

/** GET /schema, sorted by name (CURATOR reads). */
async function listSchemas() {
  return payload(await api.GET('/schema'), 'ArrayList<Schema>');
}

export const schemasQuery = () => queryOptions({ queryKey: schemaKeys.list(), queryFn: listSchemas });

export type Schema = Awaited<ReturnType<typeof listSchemas>>[number];
export type SchemaProperty = Schema['properties'][number];

/** GET /schema/properties?namespace=…: a vocabulary's properties, sorted by IRI. */
export const propertiesQuery = (namespace: string) =>
  queryOptions({
    queryKey: schemaKeys.properties(namespace),
    queryFn: async () =>
      payload(
        await api.GET('/schema/properties', { params: { query: { namespace } } }),
        'ArrayList<Property>',
      ),
    staleTime: 5 * 60_000,
  });

export interface SchemaInput {
  id: number | null;
  name: string;
  abbreviation: string;
  namespace: string;
  properties: SchemaProperty[];
}

/** POST (no id) or PUT (with id; the properties are replaced) /schema (ADMIN). */
export function useSaveSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: SchemaInput) =>
      input.id === null
        ? payload(await api.POST('/schema', { body: input }), 'Schema')
        : payload(await api.PUT('/schema', { body: input }), 'Schema'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: schemaKeys.list() }),
  });
}

/** DELETE /schema {id} (ADMIN). */
export function useDeleteSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => done(await api.DELETE('/schema', { body: { id } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: schemaKeys.list() }),
  });
}
