import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../../src/config/config.js';
import { openLedger, type LedgerReader } from '../audit/ledger.js';
import { embeddedSite, solidSite, type SheetSite } from '../spreadsheets/sheet-site.js';
import { body, sendJson } from '../test-app.js';
import { testDialect } from '../test-database.js';

/** A view curated by `curator` (sheet-site.ts) whose app's ledger a second connection reads. */
export interface LedgerSite extends SheetSite {
  readonly ledger: LedgerReader;
  /** The curator's username (what the ledger names them by). */
  readonly curatorName: string;
  close(): Promise<void>;
}

/**
 * The embedded repository as a FEDORA view (transactions), or a Community Solid Server container as an LDP
 * view (If-Match per resource), on an app whose database a second connection can open (as
 * test/support/audit/ledger.ts: a file on SQLite, the app's schema on PostgreSQL).
 */
export async function ledgerSite(where: { embedded: true } | { cssBaseUrl: string }): Promise<LedgerSite> {
  const dir = testDialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-jobs-')) : null;
  const overrides: Partial<Config> =
    dir === null
      ? {}
      : { dataDir: dir, database: { kind: 'sqlite', file: path.join(dir, 'scriptorium.db') } };
  const site =
    'embedded' in where ? await embeddedSite(overrides) : await solidSite(where.cssBaseUrl, overrides);
  const ledger = openLedger(site.t);
  const curatorName = (site.curator as { username?: string }).username;
  if (curatorName === undefined) throw new Error('the site names no curator');
  return {
    ...site,
    ledger,
    curatorName,
    close: async () => {
      await ledger.close();
      await site.t.close();
      if (dir !== null) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The payload of a SUCCESS answer (throws with the body otherwise). */
export function payloadOf(response: { body: string }): Record<string, unknown> {
  const envelope = body(response as never);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(response.body);
  return envelope.payload;
}

export interface JobState {
  readonly id: number;
  readonly state: string;
  readonly message: string | null;
}

/** Waits until the job is in one of `states` (read as `token`). */
export async function jobUntil(
  site: SheetSite,
  id: number,
  states: readonly string[],
  token: string,
): Promise<JobState> {
  for (let i = 0; i < 600; i++) {
    const job = payloadOf(await sendJson(site.t.app, 'GET', `/curation-job/${id}`, undefined, { token }))
      .CurationJob as JobState;
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}
