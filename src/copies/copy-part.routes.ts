import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { AppPart } from '../http/app-part.js';
import { CollectionCopies } from './collection-copies.js';
import type { JobCopies } from './job-copies.js';

export interface CopyPartDependencies {
  /** Where the copy engine keeps its plan rows (copy_items, migration 025). */
  readonly db: Kysely<Database>;
  /** Curation jobs, where the copy engine is registered (their runner and their report route use it). */
  readonly jobs: { useCopies(engine: JobCopies): void };
  /** An engine in place of the copy engine (tests' stand-ins); absent: `CollectionCopies`. */
  readonly engine?: JobCopies | undefined;
}

/**
 * COPY jobs (DECISIONS.md §16, issue 32): the copy engine (src/copies/) registered with the curation jobs,
 * whose runner plans, applies and undoes through it and whose `GET /curation-job/{id}/report` reads its
 * rows. The job routes are the curation jobs' own: this part adds none.
 */
export function copyPart(deps: CopyPartDependencies): AppPart {
  deps.jobs.useCopies(deps.engine ?? new CollectionCopies(deps.db));
  return { routes: [] };
}
