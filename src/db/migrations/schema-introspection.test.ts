import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../../../test/support/global-setup.js';
import { TEST_POSTGRES_URL } from '../../../test/support/test-database.js';
import { connectDatabase } from '../connect.js';
import type { Database } from '../database.js';
import { migrateToLatest } from './migrate.js';
import { confinedToSchema } from './schema-introspection.js';

/**
 * The migrator's introspection on PostgreSQL (in both passes, like the LISTEN tests: it is PostgreSQL's
 * alone): it answers what Kysely's own introspector answers for the schema, and nothing of other schemas,
 * so a database with many schemas neither slows start-up nor breaks it when another schema is dropped.
 */
const suffix = randomBytes(6).toString('hex');
const schemas = { mine: `introspect_${suffix}_a`, other: `introspect_${suffix}_b` } as const;
const handles: Kysely<Database>[] = [];

async function admin(statement: string): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(statement)).rows;
  } finally {
    await client.end();
  }
}

async function migrated(schema: string): Promise<{ db: Kysely<Database>; ran: string[] }> {
  await admin(`create schema ${schema}`);
  const { db, dialect } = connectDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, schema });
  handles.push(db);
  return { db, ran: await migrateToLatest(db, dialect) };
}

let mine: Kysely<Database>;

beforeAll(async () => {
  await ensureDatabase();
  const other = await migrated(schemas.other);
  const first = await migrated(schemas.mine);
  // Both schemas hold the migrator's bookkeeping tables, and each was brought to the latest version.
  expect(first.ran.length).toBeGreaterThan(20);
  expect(first.ran).toEqual(other.ran);
  mine = first.db;
}, 60_000);

afterAll(async () => {
  for (const db of handles) await db.destroy();
  await admin(`drop schema if exists ${schemas.mine} cascade`);
  await admin(`drop schema if exists ${schemas.other} cascade`);
});

describe('the migrator confined to its schema (PostgreSQL)', () => {
  it("lists the schema's tables exactly as Kysely's introspector does, and no other schema's", async () => {
    const confined = confinedToSchema(mine, schemas.mine).introspection;
    for (const withInternalKyselyTables of [true, false]) {
      const everywhere = await mine.introspection.getTables({ withInternalKyselyTables });
      expect(everywhere.some((table) => table.schema === schemas.other)).toBe(true);
      const expected = everywhere.filter((table) => table.schema === schemas.mine);
      const tables = await confined.getTables({ withInternalKyselyTables });
      expect(tables).toEqual(expected);
      expect(tables.some((table) => table.name === 'users')).toBe(true);
      expect(tables.some((table) => table.name === 'kysely_migration')).toBe(withInternalKyselyTables);
    }
    expect(await confined.getSchemas()).toEqual([{ name: schemas.mine }]);
  });

  it('finds its bookkeeping in place: migrating again runs nothing, the other schema untouched', async () => {
    expect(await migrateToLatest(mine, 'postgres')).toEqual([]);
    const [other] = await admin(`select count(*)::int as n from ${schemas.other}.kysely_migration`);
    expect(other?.n).toBeGreaterThan(20);
  });

  it('still works on the handle itself: queries, transactions and the schema builder go to the database', async () => {
    const confined = confinedToSchema(mine, schemas.mine);
    const users = await confined.selectFrom('users').select('username').execute();
    expect(users).toEqual([]);
    const inTransaction = await confined
      .transaction()
      .execute((trx) => sql<{ name: string }>`select name from kysely_migration`.execute(trx));
    expect(inTransaction.rows.length).toBeGreaterThan(20);
    await confined.schema.createTable('scratch').addColumn('id', 'integer').execute();
    const tables = await confined.introspection.getTables();
    expect(tables.map((table) => table.name)).toContain('scratch');
  });
});
