import { apiErrorOf, ApiError } from './errors';
import { readSession } from './session';

/**
 * The upload transport (style-anchors §6, rule 1: a documented exception to the generated client):
 * fetch cannot report upload progress, XMLHttpRequest can. A multipart POST carrying the session's token;
 * the answer is an envelope like any other, a non-SUCCESS one (or a body that is none) becomes an ApiError.
 */
export interface UploadProgress {
  /** Bytes sent so far. */
  readonly loaded: number;
  /** Bytes to send in all (the multipart body), 0 while unknown. */
  readonly total: number;
}

export interface UploadRequest {
  /** The API path, e.g. `/repository-view-context/FEDORA/1/resource`. */
  readonly path: string;
  /** The parts in order (a field a route reads before the file must come first). */
  readonly parts: readonly (readonly [name: string, value: string | Blob, filename?: string])[];
  readonly onProgress?: (progress: UploadProgress) => void;
  /** Aborting cancels the upload; the promise then rejects with an ApiError of kind `ABORTED`. */
  readonly signal?: AbortSignal;
}

/** Resolves with the envelope's payload (the caller knows its key). */
export function upload(request: UploadRequest): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    for (const [name, value, filename] of request.parts) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, filename);
    }
    xhr.open('POST', new URL(request.path, window.location.origin).href);
    const session = readSession();
    if (session !== null) xhr.setRequestHeader('authorization', `Bearer ${session.token}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      request.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    };
    const onAbort = () => xhr.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => request.signal?.removeEventListener('abort', onAbort);
    xhr.onabort = () => {
      finish();
      reject(new ApiError(0, 'ABORTED', 'The upload was cancelled'));
    };
    xhr.onerror = () => {
      finish();
      reject(
        new ApiError(0, 'NETWORK', 'The service cannot be reached. Check your connection and try again.'),
      );
    };
    xhr.onload = () => {
      finish();
      const requestId = xhr.getResponseHeader('x-request-id');
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        // not JSON: apiErrorOf names the HTTP status
      }
      const envelope = body as { meta?: { status?: string }; payload?: Record<string, unknown> } | null;
      if (xhr.status >= 200 && xhr.status < 300 && envelope?.meta?.status === 'SUCCESS') {
        resolve(envelope.payload ?? {});
        return;
      }
      reject(apiErrorOf(xhr.status, body, requestId));
    };
    if (request.signal?.aborted === true) {
      reject(new ApiError(0, 'ABORTED', 'The upload was cancelled'));
      return;
    }
    xhr.send(form);
  });
}
