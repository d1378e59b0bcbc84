import { UpstreamFailedError } from '../../shared/errors.js';
import type { CurationJobStore, JobRecord } from '../curation-job.store.js';
import type { JobTarget } from '../work/job-work.js';

/**
 * A FEDORA apply or undo resumed by another runner (issue 33, DECISIONS.md §9, §17): the transaction the
 * earlier attempt recorded, which this one did not open, is rolled back first through the view's adapter
 * (its credentials, as every call of the job), then forgotten. Its runner died or lost the job, and its path
 * locks would fail every write of the fresh transaction until it expired. Answers the message to fail the
 * phase with when it could not be rolled back, else undefined.
 */
export async function rollBackLeftTransaction(
  store: CurationJobStore,
  job: JobRecord,
  lease: string,
  target: JobTarget,
): Promise<string | undefined> {
  const transactions = target.adapter.transactions;
  if (job.repositoryTx === null || transactions === undefined) return undefined;
  try {
    await transactions.rollback({ id: job.repositoryTx });
  } catch (error) {
    // Gone already (expired, rolled back, or committed by a runner that then died): it holds no locks.
    const gone = error instanceof UpstreamFailedError && (error.status === 404 || error.status === 410);
    if (!gone) {
      const reason = error instanceof Error ? error.message : String(error);
      return `The repository transaction of the earlier attempt could not be rolled back: ${reason}`;
    }
  }
  await store.recordRepositoryTx(job.id, lease, null);
  return undefined;
}
