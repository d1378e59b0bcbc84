import type { Kysely } from 'kysely';
import { bundledVocabulary } from '../../schemas/vocabulary-catalogue.js';
import type { SchemaPropertyTable, SchemaTable } from '../../schemas/schema.table.js';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/** The schemas a fresh installation starts with; the seed runs with this migration, so exactly once. */
const SEEDS = [
  { name: 'Dublin Core', abbreviation: 'dc', vocabulary: 'dc' },
  { name: 'DCMI Terms', abbreviation: 'dcterms', vocabulary: 'dcterms' },
] as const;

interface SeedDatabase {
  schemas: SchemaTable;
  schema_properties: SchemaPropertyTable;
}

/**
 * Schemas and their properties (interface §4.5). `abbreviation` is unique because it becomes a SPARQL
 * prefix; a schema's properties go with it (ON DELETE CASCADE). Seeding here rather than at start-up
 * means deleting the seeded schemas never brings them back.
 */
export function schemasMigration(dialect: SqlDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('schemas')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('abbreviation', 'varchar(8)', (c) => c.notNull())
        .addColumn('namespace', 'varchar(2000)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('schemas_abbreviation_unique')
        .on('schemas')
        .column('abbreviation')
        .unique()
        .execute();
      await db.schema
        .createTable('schema_properties')
        .addColumn('schema_id', 'integer', (c) => c.notNull().references('schemas.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('uri', 'varchar(2000)', (c) => c.notNull())
        .addColumn('label', 'varchar(500)', (c) => c.notNull())
        .addPrimaryKeyConstraint('schema_properties_pk', ['schema_id', 'position'])
        .execute();

      const seeded = db as unknown as Kysely<SeedDatabase>;
      for (const seed of SEEDS) {
        const vocabulary = bundledVocabulary(seed.vocabulary);
        const { id } = await seeded
          .insertInto('schemas')
          .values({ name: seed.name, abbreviation: seed.abbreviation, namespace: vocabulary.namespace })
          .returning('id')
          .executeTakeFirstOrThrow();
        await seeded
          .insertInto('schema_properties')
          .values(
            vocabulary.properties.map((p, position) => ({
              schema_id: id,
              position,
              uri: p.uri,
              label: p.label,
            })),
          )
          .execute();
      }
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('schema_properties').execute();
      await db.schema.dropTable('schemas').execute();
    },
  };
}
