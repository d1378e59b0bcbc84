import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { FailedResource } from './notification.js';

/**
 * The resources a job failed on, the first `limit` by position, and how many there are: FIXITY binaries
 * whose check was not SUCCESS (with that status), other kinds' resources whose outcome is FAILED.
 */
export async function jobFailures(
  db: Kysely<Database>,
  jobId: number,
  limit: number,
): Promise<{ failures: FailedResource[]; count: number }> {
  const failedItems = db
    .selectFrom('curation_job_items')
    .where('job_id', '=', jobId)
    .where((eb) =>
      eb.or([
        eb('outcome', '=', 'FAILED'),
        eb.and([eb('fixity_status', 'is not', null), eb('fixity_status', '!=', 'SUCCESS')]),
      ]),
    );
  const rows = await failedItems
    .select(['context_uri', 'fixity_status', 'error'])
    .orderBy('position')
    .limit(limit)
    .execute();
  const counted = await failedItems.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
  return {
    failures: rows.map((row) => ({
      contextUri: row.context_uri,
      status: row.fixity_status ?? 'FAILED',
      error: row.error,
    })),
    // PostgreSQL answers count(*) as a bigint string.
    count: Number(counted?.n ?? rows.length) || 0,
  };
}
