import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../db/database.js';
import { fold } from './fold.js';
import {
  chunks,
  documentIds,
  facetIds,
  type PreparedDocument,
  type SearchEngine,
  type TextSource,
} from './search-engine.js';
import { CLOSE, OPEN } from './snippet.js';
import type { TextMatch } from './text-match.js';

/** `ts_headline`'s options: about 200 characters around the best match, the markers snippet.ts reads. */
const HEADLINE = `StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=28, MinWords=12, ShortWord=0, MaxFragments=1`;

/**
 * The tsquery of one word or phrase, in `scriptorium_english` (migration 014). Words go through
 * `phraseto_tsquery`, which reads its text as plain words (no operators); a prefix through `to_tsquery`
 * of a folded token (letters and digits only) followed by `:*`. Both stem, as FTS5 stems its prefixes.
 */
function tsquery(match: TextMatch): RawBuilder<unknown> {
  if (!match.prefix) return sql`phraseto_tsquery('scriptorium_english', ${match.tokens.join(' ')})`;
  const last = sql`to_tsquery('scriptorium_english', ${`${match.tokens[match.tokens.length - 1] ?? ''}:*`})`;
  if (match.tokens.length === 1) return last;
  return sql`tsquery_phrase(phraseto_tsquery('scriptorium_english', ${match.tokens.slice(0, -1).join(' ')}), ${last})`;
}

function allOf(words: readonly TextMatch[]): RawBuilder<unknown> {
  return sql`(${sql.join(words.map(tsquery), sql` && `)})`;
}

/**
 * PostgreSQL full-text search (migration 014): `tsvector` columns with GIN indexes on the documents
 * (their folded body) and on each literal field. Rows are written through `unnest` of one array per
 * column, so a statement's text and its parameter count do not grow with the batch.
 */
export class PostgresEngine implements SearchEngine {
  readonly dialect = 'postgres' as const;

  inValues(expression: RawBuilder<unknown>, values: readonly (string | number)[]): RawBuilder<boolean> {
    if (values.length === 0) return sql<boolean>`false`;
    return typeof values[0] === 'number'
      ? sql<boolean>`${expression} = any(cast(${values} as bigint[]))`
      : sql<boolean>`${expression} = any(cast(${values} as text[]))`;
  }

  source(words: readonly TextMatch[]): TextSource {
    if (words.length === 0) return { from: sql`search_documents d`, where: sql`true`, rank: null };
    const query = allOf(words);
    return {
      from: sql`search_documents d`,
      where: sql<boolean>`d.tsv @@ ${query}`,
      rank: sql`ts_rank(d.tsv, ${query}) desc`,
    };
  }

  facetValues(): RawBuilder<unknown> {
    return sql`(select u.k from hits cross join unnest(hits.facets) as u(k))`;
  }

  hasFacet(id: number): RawBuilder<boolean> {
    return sql<boolean>`d.facets @> array[cast(${id} as integer)]`;
  }

  async addFacetValues(trx: Transaction<Database>, values: readonly string[]): Promise<void> {
    // In one order, so two writers adding overlapping values wait for each other rather than deadlock.
    const sorted = [...values].sort();
    await sql`
      insert into search_facet_values (value) select unnest(cast(${sorted} as text[]))
      on conflict (value) do nothing`.execute(trx);
  }

  bodyMatches(match: TextMatch): RawBuilder<boolean> {
    return sql<boolean>`d.tsv @@ ${tsquery(match)}`;
  }

  fieldMatches(predicate: string, match: TextMatch): RawBuilder<boolean> {
    return sql<boolean>`d.id in (
      select f.document_id from search_fields f where f.predicate = ${predicate} and f.tsv @@ ${tsquery(match)})`;
  }

  async fragments(
    db: Kysely<Database>,
    words: readonly TextMatch[],
    documents: readonly { id: number; body: string }[],
  ): Promise<Map<number, string>> {
    const { rows } = await sql<{ id: number; fragment: string | null }>`
      select x.id, ts_headline('scriptorium_english', x.body, ${allOf(words)}, ${HEADLINE}) as fragment
      from unnest(cast(${documents.map((d) => d.id)} as bigint[]), cast(${documents.map((d) => fold(d.body))} as text[]))
        as x(id, body)`.execute(db);
    return new Map(rows.flatMap((row) => (row.fragment === null ? [] : [[row.id, row.fragment]])));
  }

  async write(
    trx: Transaction<Database>,
    viewId: number,
    documents: readonly PreparedDocument[],
    now: number,
  ): Promise<void> {
    // Rows in IRI order: two transactions writing overlapping documents lock them in the same order.
    const sorted = [...documents].sort((a, b) =>
      a.doc.iri < b.doc.iri ? -1 : a.doc.iri > b.doc.iri ? 1 : 0,
    );
    for (const chunk of chunks(sorted)) await this.writeChunk(trx, viewId, chunk, now);
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
    const column = <T>(pick: (p: PreparedDocument) => T): T[] => documents.map(pick);
    const { rows: written } = await sql<{ id: number; iri: string }>`
      insert into search_documents
        (view_id, iri, parent, name, name_key, types, is_binary, mime_type, modified, indexed_at, body, facets, tsv)
      select ${viewId}, x.iri, x.parent, x.name, x.name_key, x.types, x.is_binary, x.mime_type, x.modified,
        ${now}, x.body, cast(x.facets as integer[]),
        to_tsvector('scriptorium_english', x.folded)
      from unnest(
        cast(${column((p) => p.doc.iri)} as text[]), cast(${column((p) => p.doc.parent)} as text[]),
        cast(${column((p) => p.doc.name)} as text[]), cast(${column((p) => p.nameKey)} as text[]),
        cast(${column((p) => JSON.stringify(p.doc.types))} as text[]),
        cast(${column((p) => (p.doc.binary ? 1 : 0))} as integer[]),
        cast(${column((p) => p.doc.mimeType)} as text[]), cast(${column((p) => p.doc.modified)} as bigint[]),
        cast(${column((p) => p.body)} as text[]), cast(${column((p) => p.folded)} as text[]),
        cast(${column((p) => `{${p.facets.map((value) => ids.get(value)).join(',')}}`)} as text[])
      ) as x(iri, parent, name, name_key, types, is_binary, mime_type, modified, body, folded, facets)
      on conflict (view_id, iri) do update set
        parent = excluded.parent, name = excluded.name, name_key = excluded.name_key,
        types = excluded.types, is_binary = excluded.is_binary, mime_type = excluded.mime_type,
        modified = excluded.modified, indexed_at = excluded.indexed_at, body = excluded.body, facets = excluded.facets, tsv = excluded.tsv
      returning id, iri`.execute(trx);
    const idOf = documentIds(written);
    const idList = written.map((row) => row.id);
    await sql`delete from search_fields where document_id = any(cast(${idList} as bigint[]))`.execute(trx);
    const fields = documents.flatMap((p) => p.fields.map((field) => ({ field, document: idOf(p.doc.iri) })));
    await sql`
      insert into search_fields (document_id, predicate, value, language, is_iri, tsv)
      select x.document_id, x.predicate, x.value, x.language, x.is_iri,
        case when x.folded is null then null else to_tsvector('scriptorium_english', x.folded) end
      from unnest(
        cast(${fields.map((f) => f.document)} as bigint[]), cast(${fields.map((f) => f.field.predicate)} as text[]),
        cast(${fields.map((f) => f.field.value)} as text[]), cast(${fields.map((f) => f.field.language)} as text[]),
        cast(${fields.map((f) => (f.field.isIri ? 1 : 0))} as integer[]),
        cast(${fields.map((f) => f.field.folded)} as text[])
      ) as x(document_id, predicate, value, language, is_iri, folded)`.execute(trx);
  }
}
