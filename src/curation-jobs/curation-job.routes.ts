import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { checkedBody } from '../http/validation-errors.js';
import { BadRequestError } from '../shared/errors.js';
import {
  CurationJobBody,
  curationJobSchema,
  fixityResultSchema,
  resourceChangeSchema,
} from './curation-job.schema.js';
import type { CurationJobService } from './curation-job.service.js';
import { fixityReportCsv } from './fixity-report-csv.js';

const tags = ['curation jobs'];
const ONE = 'CurationJob';
const LIST = 'ArrayList<CurationJob>';
const CHANGES = 'ArrayList<ResourceChange>';
const REPORT = 'ArrayList<FixityResult>';

interface IdParams {
  Params: { id: string };
}

/** DECISIONS.md §9; the service decides who may see and act on which job. */
export function curationJobRoutes(jobs: CurationJobService) {
  return (app: FastifyInstance): void => {
    const one = { 200: envelopeSchema(payloadOf(ONE, curationJobSchema)) };
    const params = { type: 'object', properties: { id: { type: 'integer' } } };

    app.post(
      '/curation-job',
      {
        schema: {
          tags,
          summary: 'Start a curation job (MAPPING previews unless dryRun is false; FIXITY checks binaries)',
          body: CurationJobBody,
          response: one,
        },
      },
      async (request) =>
        success(ONE, await jobs.create(checkedBody(request, CurationJobBody), principalOf(request))),
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
      { schema: { tags, summary: 'One job', params, response: one } },
      async (request) => success(ONE, await jobs.get(request.params.id, principalOf(request))),
    );
    app.get<IdParams & { Querystring: { offset?: string; limit?: string } }>(
      '/curation-job/:id/changes',
      {
        schema: {
          tags,
          summary: 'The resources a MAPPING job changes or could not map, in the order found',
          params,
          querystring: {
            type: 'object',
            properties: {
              offset: { type: 'integer', minimum: 0, default: 0 },
              limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
            },
          },
          response: {
            200: envelopeSchema(payloadOf(CHANGES, { type: 'array', items: resourceChangeSchema })),
          },
        },
      },
      async (request) =>
        success(
          CHANGES,
          await jobs.changes(
            request.params.id,
            principalOf(request),
            request.query.offset,
            request.query.limit,
          ),
        ),
    );
    app.get<IdParams & { Querystring: { format?: string } }>(
      '/curation-job/:id/report',
      {
        schema: {
          tags,
          summary: "A FIXITY job's results, failures first; ?format=csv downloads them as CSV",
          params,
          querystring: { type: 'object', properties: { format: { type: 'string', enum: ['json', 'csv'] } } },
          response: { 200: envelopeSchema(payloadOf(REPORT, { type: 'array', items: fixityResultSchema })) },
        },
      },
      async (request, reply) => {
        const format = request.query.format ?? 'json';
        if (format !== 'json' && format !== 'csv')
          throw new BadRequestError('The query parameter format must be json or csv');
        const { job, results } = await jobs.report(request.params.id, principalOf(request));
        if (format === 'json') return success(REPORT, results);
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="curation-job-${job.id}-fixity.csv"`)
          .send(fixityReportCsv(results));
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
            params,
            response: one,
          },
        },
        async (request) => success(ONE, await jobs[action](request.params.id, principalOf(request))),
      );
    }
  };
}
