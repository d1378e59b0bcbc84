import type { Api } from '../context/api.js';

/** The service side of the jobs bench: views, the operator, and jobs followed to their end. */
export interface JobJson {
  id: number;
  state: string;
  started: number | null;
  finished: number | null;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}

const ENDED = ['PREVIEWED', 'COMPLETED', 'FAILED', 'CANCELLED', 'APPLIED', 'UNDONE'];

export async function getJob(api: Api, id: number): Promise<JobJson> {
  return (await api.call('GET', `/curation-job/${id}`)).payload.CurationJob as JobJson;
}

/** Polls every 50 ms until the job rests; a job that did not end in `expected` throws with its message. */
export async function settle(api: Api, id: number, expected: string): Promise<JobJson> {
  for (;;) {
    const job = await getJob(api, id);
    if (ENDED.includes(job.state)) {
      if (job.state !== expected)
        throw new Error(`job ${id} ended ${job.state}, not ${expected}: ${job.message}`);
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startJob(api: Api, body: Record<string, unknown>): Promise<JobJson> {
  return (await api.call('POST', '/curation-job', body)).payload.CurationJob as JobJson;
}

/**
 * Applies or undoes a job and answers the phase's wall time in ms: from just before the request to the
 * job's `finished` time (the service and this process share the machine's clock).
 */
export async function writePhase(api: Api, id: number, action: 'apply' | 'undo'): Promise<number> {
  const began = Date.now();
  await api.call('POST', `/curation-job/${id}/${action}`);
  const job = await settle(api, id, action === 'apply' ? 'APPLIED' : 'UNDONE');
  return job.finished! - began;
}
