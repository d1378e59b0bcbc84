import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { checkBody } from '../shared/body-check.js';
import { IdBody } from '../shared/body-schema.js';
import { ValidationFailedError } from '../shared/errors.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { SchemaBody } from './schema.schema.js';
import { SchemaService } from './schema.service.js';
import { SchemaStore } from './schema.store.js';

let database: TestDatabase;
let handle: DatabaseHandle;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

const noProperties = { listProperties: () => Promise.resolve([]) };

async function rejection(promise: Promise<unknown>): Promise<ValidationFailedError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ValidationFailedError);
  return error as ValidationFailedError;
}

describe('SchemaService.delete', () => {
  it('refuses to delete a schema that repository views use, naming them', async () => {
    const asked: number[] = [];
    const service = new SchemaService(
      new SchemaStore(handle.db),
      (schemaId) => {
        asked.push(schemaId);
        return Promise.resolve(['Special Collections', 'Theses']);
      },
      noProperties,
    );
    const schema = await service.create(
      checkBody(SchemaBody, {
        name: 'Used',
        abbreviation: 'used',
        namespace: 'http://used.example/',
      }),
    );
    const error = await rejection(service.delete(checkBody(IdBody, { id: schema.id })));
    expect(error.results).toEqual({
      valid: false,
      messages: {
        business: {
          DELETE: `Could not delete Schema with id ${schema.id} due to being used by repository views: Special Collections, Theses`,
        },
      },
    });
    expect(asked).toEqual([schema.id]);
    expect((await service.list()).map((s) => s.id)).toContain(schema.id);
  });

  it('turns a view that took the schema after the check into the same refusal (foreign key)', async () => {
    let calls = 0;
    const service = new SchemaService(
      new SchemaStore(handle.db),
      () => Promise.resolve(calls++ === 0 ? [] : ['Late view']),
      noProperties,
    );
    const schema = await service.create(
      checkBody(SchemaBody, {
        name: 'Raced',
        abbreviation: 'raced',
        namespace: 'http://raced.example/',
      }),
    );
    await sql`insert into repository_views (type, name, root_uri) values ('FEDORA', 'Late view', 'http://x.example/')`.execute(
      handle.db,
    );
    await sql`insert into repository_view_schemas (view_id, schema_id, position)
      select id, ${schema.id}, 0 from repository_views where name = 'Late view'`.execute(handle.db);
    const error = await rejection(service.delete(checkBody(IdBody, { id: schema.id })));
    expect(error.results.messages).toEqual({
      business: {
        DELETE: `Could not delete Schema with id ${schema.id} due to being used by repository views: Late view`,
      },
    });
  });

  it('deletes a schema no view uses, its properties with it', async () => {
    const store = new SchemaStore(handle.db);
    const service = new SchemaService(store, () => Promise.resolve([]), noProperties);
    const schema = await service.create(
      checkBody(SchemaBody, {
        name: 'Unused',
        abbreviation: 'unused',
        namespace: 'http://unused.example/',
        properties: [{ uri: 'http://unused.example/p', label: 'P' }],
      }),
    );
    await service.delete(checkBody(IdBody, { id: schema.id }));
    expect(await store.findById(schema.id)).toBeUndefined();
    const orphans = await handle.db
      .selectFrom('schema_properties')
      .selectAll()
      .where('schema_id', '=', schema.id)
      .execute();
    expect(orphans).toEqual([]);
  });
});

describe('the seeded schemas', () => {
  it('are seeded once: deleting them and migrating again does not bring them back', async () => {
    const store = new SchemaStore(handle.db);
    const seeded = await store.list();
    expect(seeded.map((s) => s.abbreviation).sort()).toEqual(['dc', 'dcterms']);
    for (const schema of seeded) await store.delete(schema.id);
    await migrateToLatest(handle.db, handle.dialect);
    expect(await store.list()).toEqual([]);
  });

  it('cascade: deleting a schema row removes its properties at the database', async () => {
    const [first] = await new SchemaStore(handle.db).list();
    await handle.db.deleteFrom('schemas').where('id', '=', first!.id).execute();
    const left = await handle.db
      .selectFrom('schema_properties')
      .select('schema_id')
      .where('schema_id', '=', first!.id)
      .execute();
    expect(left).toEqual([]);
  });
});
