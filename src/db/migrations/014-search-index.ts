import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../database.js';
import { idColumn } from './id-column.js';

/**
 * The search index (DECISIONS.md §12, issue 28): one document per resource and view, its statements, its
 * types, and the engine's full text. Text reaches either engine already folded (search/index/fold.ts:
 * accents stripped, lower case, everything but letters and digits a space), so both engines tokenize it
 * the same way and neither depends on `unaccent`.
 *
 * - `search_documents`: what a hit shows and what scope, sort, BINARY and MODIFIED need; `body` is the
 *   resource's literal values as written (snippets are cut from it); `name_key` the folded name to sort by;
 *   `facets` the ids of the document's facet values (types, predicates, media type) in
 *   `search_facet_values`: `,3,17,42,` text on SQLite, `integer[]` on PostgreSQL. The facets of any number
 *   of hits are counted from the hits' own rows in one pass (grouping small integers, not IRIs), and HAS
 *   and TYPE are a test on the row a query reads anyway (on PostgreSQL also a GIN index).
 * - `search_facet_values`: every facet value once (a kind digit, then the type, predicate or media type).
 * - `search_fields`: one row per statement; predicate-scoped words, REGEX and `naming` read it.
 *
 * Full text on SQLite: FTS5 `search_text` (rowid = document id, the folded body; snippets come from it) and
 * contentless `search_field_text` (rowid = field id, one literal value each) for predicate-scoped words.
 * Triggers delete their rows with the rows they index, also when a view's deletion cascades.
 * On PostgreSQL: `tsvector` columns with GIN indexes, in the `scriptorium_english` configuration, which
 * stems like `english` but keeps stop words (FTS5's porter tokenizer keeps them too, so "the" finds the
 * same documents on both). Text columns that are compared by range or sorted are `collate "C"`, so IRI
 * order and `within` prefix ranges are code-point order whatever the database's collation.
 * No `pg_trgm`: no query shape here matches substrings in SQL (regular expressions run in RE2 over
 * candidates the other terms narrowed).
 */
export function searchIndexMigration(dialect: SqlDialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const text = dialect === 'postgres' ? sql`text collate "C"` : sql`text`;
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('search_documents')
        .addColumn('id', big, idColumn(dialect))
        .addColumn('view_id', 'integer', (c) =>
          c.notNull().references('repository_views.id').onDelete('cascade'),
        )
        .addColumn('iri', text, (c) => c.notNull())
        .addColumn('parent', text)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', text, (c) => c.notNull())
        .addColumn('types', 'text', (c) => c.notNull())
        .addColumn('is_binary', 'integer', (c) => c.notNull())
        .addColumn('mime_type', text)
        .addColumn('modified', big)
        .addColumn('indexed_at', big, (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('facets', dialect === 'postgres' ? sql`integer[]` : 'text', (c) => c.notNull())
        .$call((t) => (dialect === 'postgres' ? t.addColumn('tsv', sql`tsvector`, (c) => c.notNull()) : t))
        .addUniqueConstraint('search_documents_iri', ['view_id', 'iri'])
        .execute();
      await db.schema
        .createIndex('search_documents_parent')
        .on('search_documents')
        .columns(['view_id', 'parent', 'name_key', 'iri'])
        .execute();
      // Newest first, undated last (SQLite puts nulls last in descending order by itself).
      await sql
        .raw(
          `create index search_documents_modified on search_documents ` +
            `(view_id, modified desc${dialect === 'postgres' ? ' nulls last' : ''}, iri)`,
        )
        .execute(db);
      await db.schema
        .createIndex('search_documents_name')
        .on('search_documents')
        .columns(['view_id', 'name_key', 'iri'])
        .execute();

      await db.schema
        .createTable('search_facet_values')
        .addColumn('id', 'integer', idColumn(dialect))
        .addColumn('value', text, (c) => c.notNull().unique())
        .execute();

      await db.schema
        .createTable('search_fields')
        // SQLite: the store assigns field ids itself (they are the FTS rowids it inserts with them).
        .addColumn('id', big, dialect === 'postgres' ? idColumn(dialect) : (c) => c.primaryKey())
        .addColumn('document_id', big, (c) =>
          c.notNull().references('search_documents.id').onDelete('cascade'),
        )
        .addColumn('predicate', text, (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('language', 'text')
        .addColumn('is_iri', 'integer', (c) => c.notNull())
        .$call((t) => (dialect === 'postgres' ? t.addColumn('tsv', sql`tsvector`) : t))
        .execute();
      await db.schema
        .createIndex('search_fields_document')
        .on('search_fields')
        .columns(['document_id', 'predicate'])
        .execute();
      // `naming`: documents with this IRI object. Values can be long; a prefix keeps index entries small
      // (PostgreSQL refuses B-tree entries over ~2.7 kB), the full value is compared after.
      await sql
        .raw(
          dialect === 'postgres'
            ? 'create index search_fields_object on search_fields (predicate, left(value, 200)) where is_iri = 1'
            : 'create index search_fields_object on search_fields (predicate, substr(value, 1, 200)) where is_iri = 1',
        )
        .execute(db);

      if (dialect === 'postgres') await postgresText(db);
      else await sqliteText(db);
    },
    async down(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'sqlite') {
        await sql`drop table if exists search_field_text`.execute(db);
        await sql`drop table if exists search_text`.execute(db);
      }
      await db.schema.dropTable('search_fields').execute();
      await db.schema.dropTable('search_documents').execute();
      await db.schema.dropTable('search_facet_values').execute();
      if (dialect === 'postgres') {
        await sql`drop text search configuration if exists scriptorium_english`.execute(db);
        await sql`drop text search dictionary if exists scriptorium_english_stem`.execute(db);
      }
    },
  };
}

const TOKENIZE = `tokenize = 'porter unicode61 remove_diacritics 2'`;

async function sqliteText(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`create virtual table search_text using fts5(body, ${TOKENIZE})`).execute(db);
  // Contentless with deletes: these rows are only matched, never shown, and keeping their text would
  // store every value a third time.
  await sql
    .raw(
      `create virtual table search_field_text using fts5(value, content = '', contentless_delete = 1, ${TOKENIZE})`,
    )
    .execute(db);
  await sql`
    create trigger search_documents_text after delete on search_documents
    begin delete from search_text where rowid = old.id; end`.execute(db);
  await sql`
    create trigger search_fields_text after delete on search_fields
    begin delete from search_field_text where rowid = old.id; end`.execute(db);
}

async function postgresText(db: Kysely<unknown>): Promise<void> {
  // The snowball English stemmer without its stop-word list (the `english_stem` dictionary has one).
  await sql`create text search dictionary scriptorium_english_stem (template = snowball, language = english)`.execute(
    db,
  );
  await sql`create text search configuration scriptorium_english (copy = english)`.execute(db);
  await sql`
    alter text search configuration scriptorium_english
    alter mapping for asciiword, asciihword, hword_asciipart, word, hword, hword_part
    with scriptorium_english_stem`.execute(db);
  // New entries wait in a pending list that a search reads whole and the planner charges for: with the
  // default limit (4 MB) a freshly indexed view was searched by sequential scans until a vacuum. A small
  // list keeps the GIN index planned and cheap to read, and still halves the cost of writes against
  // fastupdate off (measured at 70 000 documents: 1 400 against 700 documents/s).
  const gin = 'with (fastupdate = on, gin_pending_list_limit = 512)';
  for (const [index, table, column] of [
    ['search_documents_facets', 'search_documents', 'facets'],
    ['search_documents_tsv', 'search_documents', 'tsv'],
    ['search_fields_tsv', 'search_fields', 'tsv'],
  ] as const)
    await sql.raw(`create index ${index} on ${table} using gin (${column}) ${gin}`).execute(db);
}
