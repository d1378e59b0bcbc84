import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { AuditStore } from '../../../src/audit/audit.store.js';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import type { Config } from '../../../src/config/config.js';
import { connectDatabase } from '../../../src/db/connect.js';
import type { Database } from '../../../src/db/database.js';
import { buildTestApp, type TestApp } from '../test-app.js';
import { testDialect } from '../test-database.js';

/** The ledger as seen through a second connection (the service's own is never borrowed). */
export interface LedgerReader {
  /** Every event, oldest first. */
  events(): Promise<AuditEvent[]>;
  /** Events of one action, oldest first. */
  ofAction(action: AuditEvent['action']): Promise<AuditEvent[]>;
  /** The raw connection: a tamper test edits rows with it behind the service's back. */
  readonly db: Kysely<Database>;
  readonly store: AuditStore;
  close(): Promise<void>;
}

/**
 * A test app whose database a second connection can open: on SQLite a file in a temporary directory
 * (an in-memory database is private to its connection), on PostgreSQL the app's own schema.
 */
export async function buildLedgerApp(
  overrides: Partial<Config> = {},
  options: Parameters<typeof buildTestApp>[1] = {},
): Promise<TestApp> {
  if (testDialect !== 'sqlite' || overrides.database !== undefined) return buildTestApp(overrides, options);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-ledger-'));
  const app = await buildTestApp(
    {
      dataDir: dir,
      database: { kind: 'sqlite', file: path.join(dir, 'scriptorium.db') },
      ...overrides,
    },
    options,
  );
  return {
    ...app,
    close: async () => {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens the ledger of `app` through a connection of its own. */
export function openLedger(app: TestApp): LedgerReader {
  const { db, dialect } = connectDatabase(app.config.database);
  const store = new AuditStore(db, dialect);
  const all = () => store.after(0, 1_000_000);
  return {
    db,
    store,
    events: all,
    ofAction: async (action) => (await all()).filter((event) => event.action === action),
    close: () => db.destroy(),
  };
}
