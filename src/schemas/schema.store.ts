import type { Kysely, Transaction } from 'kysely';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import { writeRecorded, type Describe } from '../audit/config-change.js';
import type { Database } from '../db/database.js';
import { dataVersionOf, VersionedCache } from '../db/data-version.js';
import type { Property, Schema, SchemaInput } from './schema.js';
import type { SchemaPropertyRow, SchemaRow } from './schema.table.js';

/** Rows per INSERT of properties, well under both dialects' bound-parameter limits. */
const BATCH = 500;

/**
 * SQL access to schemas and their properties. A schema and its properties are written in one
 * transaction; an update replaces the whole property list.
 */
export class SchemaStore {
  /**
   * Every schema with its properties: read by every context request (the view's schemas) and every
   * schema list, unchanged between writes, so kept while the database is unchanged (db/data-version.ts).
   */
  private readonly listed: VersionedCache<'all', readonly Schema[]>;

  constructor(
    private readonly db: Kysely<Database>,
    /** Where each change is recorded, in the change's own transaction (`describe` says what it was). */
    private readonly audit: AuditLog = NO_AUDIT,
  ) {
    this.listed = new VersionedCache(dataVersionOf(db));
  }

  /**
   * Every schema, in the database's order, properties by position. The array, its schemas and their
   * properties are frozen: while nothing is written every call answers the same array.
   */
  async list(): Promise<readonly Schema[]> {
    return this.listed.get('all', () => this.read());
  }

  private async read(): Promise<readonly Schema[]> {
    const rows = await this.db.selectFrom('schemas').selectAll().execute();
    const properties = await this.db
      .selectFrom('schema_properties')
      .selectAll()
      .orderBy('schema_id')
      .orderBy('position')
      .execute();
    const bySchema = new Map<number, Property[]>();
    for (const property of properties) {
      const list = bySchema.get(property.schema_id) ?? [];
      list.push(toProperty(property));
      bySchema.set(property.schema_id, list);
    }
    return Object.freeze(
      rows.map((row) => {
        const properties = (bySchema.get(row.id) ?? []).map((property) => Object.freeze(property));
        return Object.freeze(toDomain(row, Object.freeze(properties)));
      }),
    );
  }

  async findById(id: number): Promise<Schema | undefined> {
    const row = await this.db.selectFrom('schemas').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toDomain(row, await this.propertiesOf(this.db, row.id));
  }

  /** The id of the schema holding this abbreviation, if any. */
  async findIdByAbbreviation(abbreviation: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('schemas')
      .select('id')
      .where('abbreviation', '=', abbreviation)
      .executeTakeFirst();
    return row?.id;
  }

  async insert(input: SchemaInput, describe?: Describe<Schema>): Promise<Schema> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .insertInto('schemas')
          .values({ name: input.name, abbreviation: input.abbreviation, namespace: input.namespace })
          .returningAll()
          .executeTakeFirstOrThrow();
        await insertProperties(trx, row.id, input.properties);
        return toDomain(row, [...input.properties]);
      },
      describe,
    );
  }

  /** Replaces the schema and its whole property list; undefined when the row no longer exists. */
  async update(schema: Schema, describe?: Describe<Schema | undefined>): Promise<Schema | undefined> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .updateTable('schemas')
          .set({ name: schema.name, abbreviation: schema.abbreviation, namespace: schema.namespace })
          .where('id', '=', schema.id)
          .returningAll()
          .executeTakeFirst();
        if (row === undefined) return undefined;
        await trx.deleteFrom('schema_properties').where('schema_id', '=', schema.id).execute();
        await insertProperties(trx, schema.id, schema.properties);
        return toDomain(row, [...schema.properties]);
      },
      describe,
    );
  }

  /**
   * Returns whether a row was deleted, its properties with it; `describe` gets the schema deleted
   * (without its properties; undefined: none was).
   */
  async delete(id: number, describe?: Describe<Schema | undefined>): Promise<boolean> {
    const deleted = await writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        await trx.deleteFrom('schema_properties').where('schema_id', '=', id).execute();
        const row = await trx.deleteFrom('schemas').where('id', '=', id).returningAll().executeTakeFirst();
        return row === undefined ? undefined : toDomain(row, []);
      },
      describe,
    );
    return deleted !== undefined;
  }

  private async propertiesOf(db: Kysely<Database>, schemaId: number): Promise<Property[]> {
    const rows = await db
      .selectFrom('schema_properties')
      .selectAll()
      .where('schema_id', '=', schemaId)
      .orderBy('position')
      .execute();
    return rows.map(toProperty);
  }
}

async function insertProperties(
  trx: Transaction<Database>,
  schemaId: number,
  properties: readonly Property[],
): Promise<void> {
  for (let start = 0; start < properties.length; start += BATCH) {
    const batch = properties.slice(start, start + BATCH);
    await trx
      .insertInto('schema_properties')
      .values(batch.map((p, i) => ({ schema_id: schemaId, position: start + i, uri: p.uri, label: p.label })))
      .execute();
  }
}

function toProperty(row: SchemaPropertyRow): Property {
  return { uri: row.uri, label: row.label };
}

function toDomain(row: SchemaRow, properties: readonly Property[]): Schema {
  return {
    id: row.id,
    name: row.name,
    abbreviation: row.abbreviation,
    namespace: row.namespace,
    properties,
  };
}
