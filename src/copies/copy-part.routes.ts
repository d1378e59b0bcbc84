import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { AppPart } from '../http/app-part.js';
import { CollectionCopies } from './collection-copies.js';
import type { JobCopies } from './job-copies.js';

export interface CopyPartDependencies {
  /** Curation jobs, where the copy engine is registered (their runner and their report route use it). */
  readonly jobs: { useCopies(engine: JobCopies): void };
  /**
   * An engine in place of the copy engine (tests' stand-ins); absent: the copy engine over `db`'s plan rows;
   * null: none, and COPY jobs fail saying so.
   */
  readonly engine?: JobCopies | null | undefined;
  readonly db: Kysely<Database>;
}

/**
 * COPY jobs (DECISIONS.md §16, issue 32): the copy engine (src/copies/) registered with the curation jobs,
 * whose runner plans, applies and undoes through it and whose `GET /curation-job/{id}/report` reads its
 * rows. The job routes are the curation jobs' own: this part adds none.
 */
export function copyPart(deps: CopyPartDependencies): AppPart {
  if (deps.engine === null) return { routes: [] };
  deps.jobs.useCopies(deps.engine ?? new CollectionCopies(deps.db));
  return { routes: [] };
}
