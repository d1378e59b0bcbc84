import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

const open: SqliteDatabase.Database[] = [];

function database(): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(':memory:');
  sqlite.exec('create table t (id integer primary key, name text not null)');
  open.push(sqlite);
  return sqlite;
}

afterEach(() => {
  for (const sqlite of open.splice(0)) if (sqlite.open) sqlite.close();
});

describe('withStatementCache', () => {
  it('prepares each SQL text once and hands out the same statement again', () => {
    const cached = withStatementCache(database());
    const first = cached.prepare('select * from t where id = ?');
    expect(cached.prepare('select * from t where id = ?')).toBe(first);
    expect(cached.prepare('select name from t')).not.toBe(first);
  });

  it('keeps at most `capacity` statements', () => {
    const cached = withStatementCache(database(), 2);
    const first = cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 3');
    expect(cached.prepare('select 1')).not.toBe(first);
  });

  it('prepares a fresh statement while the cached one is still being iterated', () => {
    const sqlite = database();
    sqlite.exec("insert into t (name) values ('a'), ('b')");
    const cached = withStatementCache(sqlite);
    const statement = cached.prepare('select name from t order by id');
    const iterator = statement.iterate([]);
    iterator.next();
    const other = cached.prepare('select name from t order by id');
    expect(other).not.toBe(statement);
    expect(other.all([])).toEqual([{ name: 'a' }, { name: 'b' }]);
    iterator.return?.();
    expect(cached.prepare('select name from t order by id')).toBe(statement);
  });

  it('gives Kysely the same results, parameters bound per execution', async () => {
    const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(database()) }),
    });
    await db.insertInto('t').values({ name: 'x' }).execute();
    await db.insertInto('t').values({ name: 'y' }).execute();
    const find = (name: string) =>
      db.selectFrom('t').select('id').where('name', '=', name).executeTakeFirst();
    expect(await find('x')).toEqual({ id: 1 });
    expect(await find('y')).toEqual({ id: 2 });
    expect(await find('z')).toBeUndefined();
    await db.destroy();
  });
});
