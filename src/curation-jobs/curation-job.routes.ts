import multipart from '@fastify/multipart';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { idParams, messages } from '../shared/body-schema.js';
import { Readable } from 'node:stream';
import { copyReportCsv } from '../copies/copy-report-csv.js';
import {
  CurationJobBody,
  copyResultSchema,
  curationJobSchema,
  fixityResultSchema,
  resourceChangeSchema,
} from './curation-job.schema.js';
import type { CurationJobService } from './curation-job.service.js';
import { fixityReportCsv } from './fixity-report-csv.js';
import { createFromUpload, MULTIPART_LIMITS } from './curation-job-upload.routes.js';

const tags = ['curation jobs'];
const ONE = 'CurationJob';
const LIST = 'ArrayList<CurationJob>';
const CHANGES = 'ArrayList<ResourceChange>';
const REPORT = 'ArrayList<FixityResult>';
const COPY_REPORT = 'ArrayList<CopyResult>';

const JobIdParams = idParams('The curation job id must be a positive integer');
interface IdParams {
  Params: Static<typeof JobIdParams>;
}

const MAX_PAGE = 1000;
const ChangesQuery = Type.Object({
  offset: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      ...messages({
        type: `The query parameter offset must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`,
      }),
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      default: 100,
      ...messages({ type: `The query parameter limit must be an integer from 1 to ${MAX_PAGE}` }),
    }),
  ),
});

const ReportQuery = Type.Object({
  ...ChangesQuery.properties,
  format: Type.Optional(
    Type.Union(
      [Type.Literal('json'), Type.Literal('csv')],
      messages({ type: 'The query parameter format must be json or csv' }),
    ),
  ),
});

/**
 * DECISIONS.md §9; the service decides who may see and act on which job. A SPREADSHEET job's sheet comes as
 * CSV text in the JSON body or as a multipart upload (DECISIONS.md §13), up to `spreadsheetMaxBytes`.
 */
export function curationJobRoutes(jobs: CurationJobService, limits: { spreadsheetMaxBytes: number }) {
  return async (app: FastifyInstance): Promise<void> => {
    const one = { 200: envelopeSchema(payloadOf(ONE, curationJobSchema)) };
    // Only POST /curation-job takes uploads; one more byte than the limit lets the sheet's reader tell
    // the sheet is over it (INVALID, naming the limit) rather than read a sheet cut short.
    await app.register(multipart, {
      throwFileSizeLimit: false,
      limits: { ...MULTIPART_LIMITS, fileSize: limits.spreadsheetMaxBytes + 1 },
    });

    app.post(
      '/curation-job',
      {
        // A sheet as CSV text may be as large as an uploaded one.
        bodyLimit: limits.spreadsheetMaxBytes,
        schema: {
          tags,
          summary:
            'Start a curation job (MAPPING and SPREADSHEET preview unless dryRun is false; FIXITY checks binaries). A SPREADSHEET job may instead be sent as multipart/form-data: the fields repositoryViewId, contextUri, dryRun, then the sheet as the part file',
          consumes: ['application/json', 'multipart/form-data'],
          body: CurationJobBody,
          response: one,
        },
      },
      async (request) => {
        const caller = principalOf(request);
        if (request.isMultipart()) return success(ONE, await createFromUpload(request, jobs, caller));
        return success(ONE, await jobs.create(checkedBody(request, CurationJobBody), caller));
      },
    );
    app.get(
      '/curation-job',
      {
        schema: {
          tags,
          summary: 'List jobs, newest first (a curator sees those of the views they curate)',
          response: { 200: envelopeSchema(payloadOf(LIST, { type: 'array', items: curationJobSchema })) },
        },
      },
      async (request) => success(LIST, await jobs.list(principalOf(request))),
    );
    app.get<IdParams>(
      '/curation-job/:id',
      { schema: { tags, summary: 'One job', params: JobIdParams, response: one } },
      async (request) => success(ONE, await jobs.get(request.params.id, principalOf(request))),
    );
    // The schema fills in the page's defaults.
    app.get<IdParams & { Querystring: Required<Static<typeof ChangesQuery>> }>(
      '/curation-job/:id/changes',
      {
        schema: {
          tags,
          summary: 'The resources a MAPPING job changes or could not map, in the order found',
          params: JobIdParams,
          querystring: ChangesQuery,
          response: {
            200: envelopeSchema(payloadOf(CHANGES, { type: 'array', items: resourceChangeSchema })),
          },
        },
      },
      async (request) =>
        success(CHANGES, await jobs.changes(request.params.id, principalOf(request), request.query)),
    );
    app.get<IdParams & { Querystring: Required<Static<typeof ChangesQuery>> & Static<typeof ReportQuery> }>(
      '/curation-job/:id/report',
      {
        schema: {
          tags,
          summary:
            "A FIXITY job's results, failures first (ArrayList<FixityResult>); a COPY job's rows in plan order, offset/limit (ArrayList<CopyResult>); ?format=csv downloads them as CSV",
          params: JobIdParams,
          querystring: ReportQuery,
          response: {
            200: envelopeSchema({
              type: 'object',
              properties: {
                [REPORT]: { type: 'array', items: fixityResultSchema },
                [COPY_REPORT]: { type: 'array', items: copyResultSchema },
              },
            }),
          },
        },
      },
      async (request, reply) => {
        const { offset, limit, format } = request.query;
        const report = await jobs.report(request.params.id, principalOf(request), { offset, limit });
        const csv = (name: string) =>
          reply
            .type('text/csv; charset=utf-8')
            .header(
              'Content-Disposition',
              `attachment; filename="curation-job-${report.job.id}-${name}.csv"`,
            );
        if (report.kind === 'COPY') {
          if (format !== 'csv') return success(COPY_REPORT, report.rows);
          return csv('copy').send(Readable.from(copyReportCsv(report.all())));
        }
        if (format !== 'csv') return success(REPORT, report.results);
        return csv('fixity').send(fixityReportCsv(report.results));
      },
    );
    for (const action of ['apply', 'undo', 'cancel'] as const) {
      app.post<IdParams>(
        `/curation-job/:id/${action}`,
        {
          schema: {
            tags,
            summary: {
              apply: 'Write a previewed job’s changes (all or nothing where the repository transacts)',
              undo: 'Write the inverse of an applied job’s changes',
              cancel: 'Cancel a queued or running job',
            }[action],
            params: JobIdParams,
            response: one,
          },
        },
        async (request) => success(ONE, await jobs[action](request.params.id, principalOf(request))),
      );
    }
  };
}
