import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { viewScopes } from '../../curation-jobs/job-targets.js';
import { principalOf } from '../../http/access.js';
import { formatDisposition } from '../../linked-data/http/content-disposition.js';
import { ContextParams } from '../../repository-view-context/context.api.js';
import { PREFIX } from '../../repository-view-context/context-route-shared.js';
import type { RepositoryViewService } from '../../repository-views/repository-view.service.js';
import type { ScopeFinder } from '../../search/search.js';
import { messages } from '../../shared/body-schema.js';
import { checkExportRequest, EXPORT_SCOPES } from './export-request.js';
import { exportFilename, spoolExport } from './spreadsheet-export.js';

/**
 * The query string of GET …/export. The schema checks only the types (a repeated parameter is the 400 of
 * every query parameter); values are the domain's INVALID, every problem in one answer.
 */
const ExportQuery = Type.Object({
  contextUri: Type.Optional(
    Type.String({
      description: 'The container (absolute, or relative to the view root; default the root)',
      ...messages({ type: 'The query parameter contextUri must be given once' }),
    }),
  ),
  scope: Type.Optional(
    Type.String({
      description: `${EXPORT_SCOPES.join(', ')}: the resources exported (QUERY: the query's hits below contextUri; MEMBERS: its pcdm members)`,
      ...messages({ type: `The query parameter scope must be one of ${EXPORT_SCOPES.join(', ')}` }),
    }),
  ),
  query: Type.Optional(
    Type.String({
      description: 'QUERY scope: the search query (the language of GET …/search)',
      ...messages({ type: 'The query parameter query must be given once' }),
    }),
  ),
  format: Type.Optional(
    Type.String({
      default: 'csv',
      description: 'csv',
      ...messages({ type: 'The query parameter format must be csv' }),
    }),
  ),
  bom: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'true: the CSV starts with a UTF-8 byte-order mark (Excel needs it to read UTF-8)',
      ...messages({ type: 'The query parameter bom must be true or false' }),
    }),
  ),
});

interface ExportHttpRequest {
  Params: Static<typeof ContextParams>;
  Querystring: Static<typeof ExportQuery>;
}

export interface ExportSettings {
  readonly concurrency: number;
  readonly maxResources: number;
}

/**
 * GET /repository-view-context/{type}/{repositoryViewId}/export (DECISIONS.md §13): the view is opened as for
 * every context endpoint (ADMIN or a curator of the view), the scope read and spooled whole — every error
 * is an envelope, before any CSV byte — then the CSV streamed as a download.
 */
export function spreadsheetExportRoutes(
  views: RepositoryViewService,
  search: ScopeFinder,
  settings: ExportSettings,
) {
  return (app: FastifyInstance): void => {
    app.get<ExportHttpRequest>(
      `${PREFIX}/export`,
      {
        schema: {
          tags: ['repository view context'],
          summary:
            'Download a scope’s metadata as CSV (raw text/csv, not an envelope; errors are envelopes, sent before any CSV)',
          params: ContextParams,
          querystring: ExportQuery,
          response: {},
        },
      },
      async (request, reply) => {
        const { type, repositoryViewId } = request.params;
        const opened = await views.open(type, repositoryViewId, principalOf(request));
        const checked = checkExportRequest(
          { rootUri: opened.view.rootUri, schemas: opened.schemas },
          request.query,
          true,
        );
        const gone = new AbortController();
        const abandon = () => {
          if (!reply.raw.writableFinished) gone.abort();
        };
        reply.raw.once('close', abandon);
        let spooled;
        try {
          spooled = await spoolExport(
            {
              adapter: opened.adapter,
              schemas: opened.schemas,
              rootUri: opened.view.rootUri,
              scopes: viewScopes(search, opened.view.id),
            },
            checked,
            {
              ...settings,
              signal: gone.signal,
              onWriteError: (error) => {
                request.log.warn({ err: error }, 'A CSV export ended before it was written whole');
              },
            },
          );
        } finally {
          reply.raw.off('close', abandon);
        }
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header(
          'content-disposition',
          formatDisposition(exportFilename(opened.view.name, checked.scope)),
        );
        return reply.send(spooled.csv());
      },
    );
  };
}
