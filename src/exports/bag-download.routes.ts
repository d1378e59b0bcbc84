import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../auth/roles.js';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import { principalOf } from '../http/access.js';
import { idParams, messages } from '../shared/body-schema.js';
import { businessInvalid } from '../shared/business-messages.js';
import { NotFoundError } from '../shared/errors.js';
import { tarOfBag, zipOfBag } from './bag-archive.js';
import { TAG_MANIFEST } from './bag-tags.js';

const JobIdParams = idParams('The curation job id must be a positive integer');

const DownloadQuery = Type.Object({
  format: Type.Optional(
    Type.Union(
      [Type.Literal('tar'), Type.Literal('zip')],
      messages({ type: 'The query parameter format must be tar or zip' }),
    ),
  ),
});

export interface BagDownloadDependencies {
  /** The job as the caller may read it (GET /curation-job/{id}: NotFound for a job they may not see). */
  readonly job: (id: number, caller: Principal) => Promise<CurationJob>;
  /** Where a job's bag is on disk. */
  readonly bagDirectory: (jobId: number) => string;
  /** The payload files' bag paths, in order (export_files). */
  readonly payload: (jobId: number) => AsyncIterable<string>;
}

/**
 * GET /curation-job/{id}/download (DECISIONS.md §15): a COMPLETED EXPORT job's bag as a tar, or
 * `?format=zip` as a zip, streamed from its files; the archive's root directory is `bag-<id>/`. Whoever may
 * read the job may download it. Not an envelope when it succeeds; every refusal is one, before any byte.
 */
export function bagDownloadRoutes(deps: BagDownloadDependencies) {
  return (app: FastifyInstance): void => {
    app.get<{ Params: Static<typeof JobIdParams>; Querystring: Static<typeof DownloadQuery> }>(
      '/curation-job/:id/download',
      {
        schema: {
          tags: ['curation jobs'],
          summary:
            "A COMPLETED EXPORT job's BagIt bag as a tar (?format=zip: a zip), root directory bag-<id>/ (not an envelope; errors are envelopes)",
          params: JobIdParams,
          querystring: DownloadQuery,
          response: {},
        },
      },
      async (request, reply) => {
        const job = await deps.job(request.params.id, principalOf(request));
        if (job.kind !== 'EXPORT')
          throw businessInvalid(
            'READ',
            `Curation job ${job.id} is a ${job.kind} job; only an EXPORT job has a bag to download`,
          );
        if (job.state !== 'COMPLETED')
          throw businessInvalid(
            'READ',
            `Curation job ${job.id} is ${job.state}; its bag can be downloaded once the job is COMPLETED`,
          );
        const directory = deps.bagDirectory(job.id);
        try {
          await stat(path.join(directory, TAG_MANIFEST));
        } catch {
          throw new NotFoundError(`The bag of curation job ${job.id} is no longer on the server`);
        }
        const zip = request.query.format === 'zip';
        const bag = { root: `bag-${job.id}`, directory, payload: deps.payload(job.id) };
        return reply
          .type(zip ? 'application/zip' : 'application/x-tar')
          .header('Content-Disposition', `attachment; filename="bag-${job.id}.${zip ? 'zip' : 'tar'}"`)
          .send(zip ? zipOfBag(bag) : tarOfBag(bag));
      },
    );
  };
}
