import { useMutation } from '@tanstack/react-query';
import { api, type Complete } from '../../api/client';
import type { ViewRef } from '../../api/context-uri';
import { ApiError } from '../../api/errors';
import { filenameOf } from '../../api/filename';
import { saveFile } from '../../api/save-file';
import type { paths } from '../../api/schema.gen';
import { upload, type UploadProgress } from '../../api/upload';

/*
 * Spreadsheets (DECISIONS.md §13): a scope's metadata downloaded as CSV, and a CSV uploaded as a SPREADSHEET
 * curation job that previews first. Both requests need the session's token, so neither is a plain link:
 * the export is fetched and saved as a Blob, the import is a multipart upload with progress.
 */

const EXPORT = '/repository-view-context/{type}/{repositoryViewId}/export';
type NewJob = paths['/curation-job']['post']['requestBody']['content']['application/json'];
/**
 * Which resources become the rows: a container's children or subtree, a search's hits, its members — the
 * job scopes (§12) but the container alone (the export's parameter is typed only as text).
 */
export type ExportScope = Exclude<NonNullable<NewJob['scope']>, 'RESOURCE'>;

type JobEnvelope = paths['/curation-job/{id}']['get']['responses'][200]['content']['application/json'];
/** The job an import created (DECISIONS.md §9), as the service writes it. */
export type ImportedJob = Complete<NonNullable<NonNullable<JobEnvelope['payload']>['CurationJob']>>;

export interface ExportRequest {
  readonly view: ViewRef;
  /** The container the scope starts at ('' is the view's root). */
  readonly contextUri: string;
  readonly scope: ExportScope;
  /** QUERY: the query as search runs it (typed text and chosen filters). */
  readonly query?: string;
  /** A byte-order mark first, so that Excel reads the file as UTF-8. */
  readonly bom: boolean;
}

/** GET …/export?format=csv: the CSV as a Blob with the file name the service gives it. */
export async function exportCsv(request: ExportRequest): Promise<{ blob: Blob; filename: string }> {
  const result = await api.GET(EXPORT, {
    params: {
      path: { type: request.view.type, repositoryViewId: request.view.id },
      query: {
        contextUri: request.contextUri,
        scope: request.scope,
        format: 'csv',
        bom: request.bom,
        ...(request.query === undefined ? {} : { query: request.query }),
      },
    },
    parseAs: 'blob',
  });
  const blob: unknown = result.data;
  if (!(blob instanceof Blob)) throw new ApiError(200, 'ERROR', 'The export carried no file.');
  const fallback = `export-${request.scope.toLowerCase()}.csv`;
  return { blob, filename: filenameOf(result.response.headers.get('content-disposition'), fallback) };
}

/** Export CSV: fetches the file and hands it to the browser to save; answers the file's name. */
export function useExportCsv() {
  return useMutation({
    mutationFn: async (request: ExportRequest) => {
      const { blob, filename } = await exportCsv(request);
      saveFile(blob, filename);
      return filename;
    },
  });
}

export interface ImportRequest {
  readonly viewId: number;
  /** The container `+` rows become children of ('' is the view's root). */
  readonly contextUri: string;
  readonly file: File;
  readonly onProgress?: (progress: UploadProgress) => void;
  readonly signal?: AbortSignal;
}

/**
 * POST /curation-job multipart: a SPREADSHEET job over the file, as a dry run (the preview; nothing is
 * written until it is applied). The fields come before the file part: the route reads them first.
 */
export async function importSpreadsheet(request: ImportRequest): Promise<ImportedJob> {
  const answer = await upload({
    path: '/curation-job',
    parts: [
      ['repositoryViewId', String(request.viewId)],
      ['contextUri', request.contextUri],
      ['kind', 'SPREADSHEET'],
      ['dryRun', 'true'],
      ['file', request.file, request.file.name],
    ],
    ...(request.onProgress === undefined ? {} : { onProgress: request.onProgress }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  const job = answer.CurationJob as ImportedJob | undefined;
  if (job === undefined) throw new ApiError(200, 'ERROR', 'The answer carried no CurationJob.');
  return job;
}
