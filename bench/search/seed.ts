import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { corpus, seriesPaths } from './corpus.js';

/** Where the corpus lives in the repository. */
export const CORPUS_ROOT = 'bench';

/**
 * Writes the corpus straight into the embedded repository's table, as its own writes store resources (the
 * same columns and N-Triples), in batches: the repository's triggers queue every row for the search feed
 * exactly as a write through /rest would. Seeding through /rest would take minutes at 100 000 and measure
 * the repository, not the index.
 */
export async function seedRepository(db: Kysely<Database>, size: number): Promise<number> {
  const now = Date.now();
  const row = (path: string, parent: string, triples: string) => ({
    path,
    parent,
    kind: 'container',
    triples,
    created: now,
    created_by: 'bench',
    last_modified: now,
    last_modified_by: 'bench',
    revision: 1,
    mime_type: null,
    filename: null,
    size: null,
    sha512: null,
    sha256: null,
  });
  const containers = [
    row(CORPUS_ROOT, '', ''),
    ...seriesPaths(CORPUS_ROOT).map((path) => row(path, CORPUS_ROOT, '')),
  ];
  await db.insertInto('repo_resources').values(containers).execute();
  let batch: ReturnType<typeof row>[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    await db.insertInto('repo_resources').values(batch).execute();
    batch = [];
  };
  for (const record of corpus(CORPUS_ROOT, size)) {
    batch.push(row(record.path, record.parent, record.triples));
    // PostgreSQL takes at most 65 535 parameters per statement (14 columns a row).
    if (batch.length === 2000) await flush();
  }
  await flush();
  return containers.length + size;
}
