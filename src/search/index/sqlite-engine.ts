import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import {
  chunks,
  documentIds,
  facetIds,
  type PreparedDocument,
  type SearchEngine,
  type TextSource,
} from './search-engine.js';
import { CLOSE, OPEN } from './snippet.js';
import { fts5Query, type TextMatch } from './text-match.js';

/** Tokens around the match in an FTS5 snippet (its maximum is 64): about 200 characters of text. */
const SNIPPET_TOKENS = 28;

/**
 * SQLite FTS5 (migration 014): `search_text` holds each document's folded body under the document's id,
 * `search_field_text` each literal value under the field's id. MATCH strings are built from folded tokens
 * this side quotes (text-match.ts), and are bound like every other value.
 */
export class SqliteEngine implements SearchEngine {
  readonly dialect = 'sqlite' as const;

  inValues(expression: RawBuilder<unknown>, values: readonly (string | number)[]): RawBuilder<boolean> {
    return sql<boolean>`${expression} in (select value from json_each(${JSON.stringify(values)}))`;
  }

  source(words: readonly TextMatch[]): TextSource {
    if (words.length === 0) return { from: sql`search_documents d`, where: sql`1 = 1`, rank: null };
    return {
      from: sql`search_text join search_documents d on d.id = search_text.rowid`,
      where: sql<boolean>`search_text match ${fts5Query(words)}`,
      // bm25: lower is better.
      rank: sql`bm25(search_text)`,
    };
  }

  facetValues(): RawBuilder<unknown> {
    return sql`(select j.value as k from hits, json_each('[' || trim(hits.facets, ',') || ']') j)`;
  }

  hasFacet(id: number): RawBuilder<boolean> {
    // `facets` is `,3,17,42,`: an id is there exactly when `,id,` is.
    return sql<boolean>`instr(d.facets, ${`,${id},`}) > 0`;
  }

  async addFacetValues(trx: Transaction<Database>, values: readonly string[]): Promise<void> {
    await sql`
      insert into search_facet_values (value) select value from json_each(${JSON.stringify(values)}) where true
      on conflict (value) do nothing`.execute(trx);
  }

  bodyMatches(match: TextMatch): RawBuilder<boolean> {
    return sql<boolean>`d.id in (select rowid from search_text where search_text match ${fts5Query([match])})`;
  }

  fieldMatches(predicate: string, match: TextMatch): RawBuilder<boolean> {
    // CROSS JOIN keeps SQLite from reordering: the matching values first, then their fields by id (the
    // other way round reads every value of the predicate).
    return sql<boolean>`d.id in (
      select f.document_id from search_field_text cross join search_fields f on f.id = search_field_text.rowid
      where search_field_text match ${fts5Query([match])} and f.predicate = ${predicate})`;
  }

  async fragments(
    db: Kysely<Database>,
    words: readonly TextMatch[],
    documents: readonly { id: number; body: string }[],
  ): Promise<Map<number, string>> {
    const { rows } = await sql<{ id: number; fragment: string | null }>`
      select rowid as id, snippet(search_text, 0, ${OPEN}, ${CLOSE}, '', ${SNIPPET_TOKENS}) as fragment
      from search_text
      where search_text match ${fts5Query(words)}
        and ${this.inValues(
          sql`rowid`,
          documents.map((d) => d.id),
        )}`.execute(db);
    return new Map(rows.flatMap((row) => (row.fragment === null ? [] : [[row.id, row.fragment]])));
  }

  async write(
    trx: Transaction<Database>,
    viewId: number,
    documents: readonly PreparedDocument[],
    now: number,
  ): Promise<void> {
    for (const chunk of chunks(documents)) await this.writeChunk(trx, viewId, chunk, now);
  }

  private async writeChunk(
    trx: Transaction<Database>,
    viewId: number,
    documents: readonly PreparedDocument[],
    now: number,
  ): Promise<void> {
    const ids = await facetIds(
      trx,
      this,
      documents.flatMap((p) => p.facets),
      trx,
    );
    const rows = documents.map((p) => [
      p.doc.iri,
      p.doc.parent,
      p.doc.name,
      p.nameKey,
      JSON.stringify(p.doc.types),
      p.doc.binary ? 1 : 0,
      p.doc.mimeType,
      p.doc.modified,
      p.body,
      `,${p.facets.map((value) => ids.get(value)).join(',')},`,
    ]);
    // `where true`: SQLite's grammar needs it between INSERT … SELECT and ON CONFLICT.
    const { rows: written } = await sql<{ id: number; iri: string }>`
      insert into search_documents
        (view_id, iri, parent, name, name_key, types, is_binary, mime_type, modified, indexed_at, body, facets)
      select ${viewId}, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5,
        value ->> 6, value ->> 7, ${now}, value ->> 8, value ->> 9
      from json_each(${JSON.stringify(rows)}) where true
      on conflict (view_id, iri) do update set
        parent = excluded.parent, name = excluded.name, name_key = excluded.name_key,
        types = excluded.types, is_binary = excluded.is_binary, mime_type = excluded.mime_type,
        modified = excluded.modified, indexed_at = excluded.indexed_at, body = excluded.body,
        facets = excluded.facets
      returning id, iri`.execute(trx);
    const idOf = documentIds(written);
    const idList = JSON.stringify(written.map((row) => row.id));
    // A replaced document's old statements and text go first (a trigger takes each field's text).
    await sql`delete from search_fields where document_id in (select value from json_each(${idList}))`.execute(
      trx,
    );
    await sql`delete from search_text where rowid in (select value from json_each(${idList}))`.execute(trx);
    const texts = documents.map((p) => [idOf(p.doc.iri), p.folded]);
    await sql`
      insert into search_text (rowid, body)
      select value ->> 0, value ->> 1 from json_each(${JSON.stringify(texts)})`.execute(trx);
    // Field ids are the FTS rowids of their values, so this side assigns them. The transaction holds
    // SQLite's write lock since the upsert above: no other writer can take the same ids.
    const { rows: top } = await sql<{ last: number }>`
      select coalesce(max(id), 0) as last from search_fields`.execute(trx);
    let next = (top[0]?.last ?? 0) + 1;
    const fields: unknown[][] = [];
    const values: unknown[][] = [];
    for (const p of documents) {
      const document = idOf(p.doc.iri);
      for (const field of p.fields) {
        const id = next++;
        fields.push([id, document, field.predicate, field.value, field.language, field.isIri ? 1 : 0]);
        if (field.folded !== null) values.push([id, field.folded]);
      }
    }
    await sql`
      insert into search_fields (id, document_id, predicate, value, language, is_iri)
      select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5
      from json_each(${JSON.stringify(fields)})`.execute(trx);
    await sql`
      insert into search_field_text (rowid, value)
      select value ->> 0, value ->> 1 from json_each(${JSON.stringify(values)})`.execute(trx);
  }
}
