import type { CopyResult } from '../../../src/copies/job-copies.js';
import type { ServiceApi } from './service-process.js';

/** A COPY job as `GET /curation-job/{id}` answers it (the fields the tests read). */
export interface CopyJob {
  readonly id: number;
  readonly kind: string;
  readonly state: string;
  readonly targetRepositoryViewId: number | null;
  readonly targetContextUri: string | null;
  readonly progress: { total: number; done: number; changed: number; failed: number };
  readonly message: string | null;
}

export interface CopyJobRequest {
  readonly repositoryViewId: number;
  readonly contextUri: string;
  readonly targetRepositoryViewId: number;
  readonly targetContextUri: string;
  readonly dryRun: boolean;
}

/** Starts a COPY of `contextUri`'s subtree (DECISIONS.md §16). */
export async function startCopy(api: ServiceApi, request: CopyJobRequest): Promise<CopyJob> {
  const payload = await api.ok('POST', '/curation-job', { kind: 'COPY', scope: 'SUBTREE', ...request });
  return payload.CurationJob as CopyJob;
}

export async function getJob(api: ServiceApi, id: number): Promise<CopyJob> {
  return (await api.ok('GET', `/curation-job/${id}`)).CurationJob as CopyJob;
}

const RESTING = ['PREVIEWED', 'COMPLETED', 'FAILED', 'CANCELLED', 'APPLIED', 'UNDONE'];

/** Polls until the job rests; a job resting elsewhere than `expected` throws with its message. */
export async function settle(
  api: ServiceApi,
  id: number,
  expected: string,
  timeoutMs = 120_000,
): Promise<CopyJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(api, id);
    if (RESTING.includes(job.state)) {
      if (job.state !== expected)
        throw new Error(`job ${id} ended ${job.state}, not ${expected}: ${job.message}`);
      return job;
    }
    if (Date.now() > deadline) throw new Error(`job ${id} never became ${expected}: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The job's whole report (`GET /curation-job/{id}/report`), in plan order. */
export async function copyReport(api: ServiceApi, id: number): Promise<CopyResult[]> {
  const rows: CopyResult[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = (await api.ok('GET', `/curation-job/${id}/report?offset=${offset}&limit=500`))[
      'ArrayList<CopyResult>'
    ] as CopyResult[];
    rows.push(...page);
    if (page.length < 500) return rows;
  }
}
