import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase } from './connect.js';
import { PreparedQuery } from './prepared-query.js';

interface Db {
  t: { id: number; name: string; n: number };
}

let db: Kysely<Db>;

beforeEach(async () => {
  db = connectDatabase({ kind: 'sqlite', file: ':memory:' }).db as unknown as Kysely<Db>;
  await sql`create table t (id integer primary key, name text not null, n integer not null)`.execute(db);
  await db
    .insertInto('t')
    .values([
      { id: 1, name: 'a', n: 10 },
      { id: 2, name: 'b', n: 20 },
      { id: 3, name: 'a', n: 30 },
    ])
    .execute();
});

afterEach(async () => {
  await db.destroy();
});

describe('PreparedQuery', () => {
  it('compiles once to the SQL the builder writes and runs with each call’s values', async () => {
    const build = (name: string, min: number) =>
      db.selectFrom('t').select(['id', 'n']).where('name', '=', name).where('n', '>', min).orderBy('id');
    const query = PreparedQuery.of(db, { name: '', min: 0 }, (p) => build(p.name, p.min));
    expect(query.sql).toBe(build('x', 1).compile().sql);
    expect(await query.execute({ name: 'a', min: 0 })).toEqual([
      { id: 1, n: 10 },
      { id: 3, n: 30 },
    ]);
    expect(await query.execute({ name: 'a', min: 10 })).toEqual([{ id: 3, n: 30 }]);
    expect(await query.executeTakeFirst({ name: 'b', min: 0 })).toEqual({ id: 2, n: 20 });
    expect(await query.executeTakeFirst({ name: 'c', min: 0 })).toBeUndefined();
  });

  it('keeps the constants written into the query', async () => {
    const query = PreparedQuery.of(db, { min: 0 }, (p) =>
      db.selectFrom('t').select('id').where('name', '=', 'a').where('n', '>', p.min),
    );
    expect(await query.execute({ min: 15 })).toEqual([{ id: 3 }]);
  });
});
