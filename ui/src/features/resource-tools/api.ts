import { queryOptions } from '@tanstack/react-query';
import { api, done, payload } from '../../api/client';
import type { Context } from '../../api/context-types';
import { contextUriOf, type ResourceRef, type ViewRef } from '../../api/context-uri';
import { upload, type UploadProgress } from '../../api/upload';
import { filenameOf } from '../../api/filename';

/**
 * Transactions, versions and binaries of one resource. Writes change the resource's context: they
 * invalidate `contextKeys.view(viewId)` (api/context-uri.ts), not keys of this feature. This feature's
 * own reads (the fixity report) start with 'resource-tools'.
 */
export const toolKeys = {
  all: ['resource-tools'] as const,
  fixity: (resource: ResourceRef) =>
    [...toolKeys.all, 'fixity', resource.view.id, resource.uri ?? '', resource.tx ?? ''] as const,
};

const pathOf = (view: ViewRef) => ({ type: view.type, repositoryViewId: view.id });

/** The contextUri for a request on this resource ('' is the root). */
export const contextUri = (resource: Pick<ResourceRef, 'uri' | 'tx'>): string => contextUriOf(resource) ?? '';

export interface TransactionDetails {
  /** `tx:<id>`, as the API gives it. */
  readonly token: string;
  /** Epoch milliseconds. */
  readonly expiration: number;
}

/** GET /transaction: starts one (no contextUri). */
export async function startTransaction(view: ViewRef): Promise<TransactionDetails> {
  return payload(
    await api.GET('/repository-view-context/{type}/{repositoryViewId}/transaction', {
      params: { path: pathOf(view) },
    }),
    'TransactionDetails',
  );
}

/** PUT /transaction: extends it (the route takes contextUri from the form or, as here, the query). */
export async function refreshTransaction(view: ViewRef, tx: string): Promise<TransactionDetails> {
  return payload(
    await api.PUT('/repository-view-context/{type}/{repositoryViewId}/transaction', {
      params: { path: pathOf(view), query: { contextUri: contextUri({ uri: undefined, tx }) } },
    }),
    'TransactionDetails',
  );
}

/** POST /transaction: commits. */
export async function commitTransaction(view: ViewRef, tx: string): Promise<void> {
  done(
    await api.POST('/repository-view-context/{type}/{repositoryViewId}/transaction', {
      params: { path: pathOf(view), query: { contextUri: contextUri({ uri: undefined, tx }) } },
    }),
  );
}

/** DELETE /transaction: rolls back. */
export async function rollBackTransaction(view: ViewRef, tx: string): Promise<void> {
  done(
    await api.DELETE('/repository-view-context/{type}/{repositoryViewId}/transaction', {
      params: { path: pathOf(view), query: { contextUri: contextUri({ uri: undefined, tx }) } },
    }),
  );
}

/** POST /version?contextUri&name: a new version of the resource, labelled `name` when given. */
export async function createVersion(resource: ResourceRef, name: string): Promise<Context> {
  // `name` is read by the route but not described in the OpenAPI document's shared query schema.
  const query: { contextUri: string; name?: string } = { contextUri: contextUri(resource) };
  if (name !== '') query.name = name;
  return payload(
    await api.POST('/repository-view-context/{type}/{repositoryViewId}/version', {
      params: { path: pathOf(resource.view), query },
    }),
    'RepositoryViewContext',
  );
}

/** PATCH /version: restores the version whose IRI is `versionUri`. */
export async function restoreVersion(view: ViewRef, versionUri: string): Promise<Context> {
  return payload(
    await api.PATCH('/repository-view-context/{type}/{repositoryViewId}/version', {
      params: { path: pathOf(view), query: { contextUri: versionUri } },
    }),
    'RepositoryViewContext',
  );
}

/** DELETE /version: deletes the version whose IRI is `versionUri`. */
export async function deleteVersion(view: ViewRef, versionUri: string): Promise<void> {
  done(
    await api.DELETE('/repository-view-context/{type}/{repositoryViewId}/version', {
      params: { path: pathOf(view), query: { contextUri: versionUri } },
    }),
  );
}

/** GET /resource/fixity: checked afresh each time the dialog opens. */
export const fixityQuery = (resource: ResourceRef) =>
  queryOptions({
    queryKey: toolKeys.fixity(resource),
    queryFn: async () =>
      payload(
        await api.GET('/repository-view-context/{type}/{repositoryViewId}/resource/fixity', {
          params: { path: pathOf(resource.view), query: { contextUri: contextUri(resource) } },
        }),
        'FixityReport',
      ),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** GET /resource/content: the bytes (with the bearer token, so fetched, not linked) and the file name. */
export async function downloadBinary(resource: ResourceRef): Promise<{ blob: Blob; filename: string }> {
  const result = await api.GET('/repository-view-context/{type}/{repositoryViewId}/resource/content', {
    params: { path: pathOf(resource.view), query: { contextUri: contextUri(resource) } },
    parseAs: 'blob',
  });
  const blob: unknown = result.data;
  if (!(blob instanceof Blob)) throw new Error('The download carried no content');
  return { blob, filename: filenameOf(result.response.headers.get('content-disposition')) };
}

/** POST /resource multipart (contextUri, then file) with progress; answers the container's context. */
export async function uploadFile(
  resource: ResourceRef,
  file: File,
  onProgress: (progress: UploadProgress) => void,
  signal: AbortSignal,
): Promise<void> {
  await upload({
    path: `/repository-view-context/${resource.view.type}/${resource.view.id}/resource`,
    parts: [
      ['contextUri', contextUri(resource)],
      ['file', file, file.name],
    ],
    onProgress,
    signal,
  });
}
