import type { AppPart } from '../http/app-part.js';
import type { JobCopies } from './job-copies.js';

export interface CopyPartDependencies {
  /** Curation jobs, where the copy engine is registered (their runner and their report route use it). */
  readonly jobs: { useCopies(engine: JobCopies): void };
  /** An engine in place of the copy engine (tests' stand-ins); absent: COPY jobs fail, saying so. */
  readonly engine?: JobCopies | undefined;
}

/**
 * COPY jobs (DECISIONS.md §16, issue 32): the copy engine (src/copies/) registered with the curation jobs,
 * whose runner plans, applies and undoes through it and whose `GET /curation-job/{id}/report` reads its
 * rows. The job routes are the curation jobs' own: this part adds none.
 */
export function copyPart(deps: CopyPartDependencies): AppPart {
  if (deps.engine !== undefined) deps.jobs.useCopies(deps.engine);
  return { routes: [] };
}
