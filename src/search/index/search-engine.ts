import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';
import type { SearchDocument } from '../search.js';
import { fold, nameKey } from './fold.js';
import type { TextMatch } from './text-match.js';

/** A literal field's folded text (null for an IRI object: IRIs are matched whole, never as words). */
export interface PreparedField {
  readonly predicate: string;
  readonly value: string;
  readonly language: string | null;
  readonly isIri: boolean;
  readonly folded: string | null;
}

/** A document with what the tables need computed once: its body as written and folded, its sort key. */
export interface PreparedDocument {
  readonly doc: SearchDocument;
  readonly body: string;
  readonly folded: string;
  readonly nameKey: string;
  readonly fields: readonly PreparedField[];
  /** Its facet values, distinct: `1` + each type, `2` + each predicate, `3` + its media type. */
  readonly facets: readonly string[];
}

/** A facet value's first character: which facet it counts for. */
export const FACET_TYPE = '1';
export const FACET_PREDICATE = '2';
export const FACET_MEDIA_TYPE = '3';

/**
 * Longest IRI (and parent IRI) the index takes, in UTF-8 bytes: the parent, the name key and the IRI
 * together must fit one B-tree entry (PostgreSQL refuses entries over ~2.7 kB).
 */
export const MAX_IRI_BYTES = 1000;

function checkIri(iri: string | null): void {
  if (iri !== null && Buffer.byteLength(iri) > MAX_IRI_BYTES)
    throw new Error(
      `cannot index ${iri.slice(0, 80)}…: IRIs and media types over ${MAX_IRI_BYTES} bytes are not indexed`,
    );
}

/**
 * What the tables need of a document. The text searched is its literal values as written, one per line,
 * and its name when that is none of them (a binary's file name) and not just its IRI. An IRI, predicate,
 * type or media type too long for an index entry is refused (the whole batch, with the reason).
 */
export function prepare(doc: SearchDocument): PreparedDocument {
  checkIri(doc.iri);
  checkIri(doc.parent);
  for (const iri of [...doc.types, ...doc.fields.map((field) => field.predicate), doc.mimeType])
    checkIri(iri);
  const literals = doc.fields.filter((field) => !field.isIri).map((field) => field.value);
  const lines = doc.name !== doc.iri && !literals.includes(doc.name) ? [doc.name, ...literals] : literals;
  const body = lines.join('\n');
  return {
    doc,
    body,
    folded: fold(body),
    nameKey: nameKey(doc.name),
    facets: [
      ...new Set([
        ...doc.types.map((type) => `${FACET_TYPE}${type}`),
        ...doc.fields.map((field) => `${FACET_PREDICATE}${field.predicate}`),
        ...(doc.mimeType === null ? [] : [`${FACET_MEDIA_TYPE}${doc.mimeType}`]),
      ]),
    ],
    fields: doc.fields.map((field) => ({ ...field, folded: field.isIri ? null : fold(field.value) })),
  };
}

/** Where a query's documents `d` come from, and what its words add. */
export interface TextSource {
  /** The FROM clause naming the documents `d` (joined to their full text where the engine needs it). */
  readonly from: RawBuilder<unknown>;
  /** The words' condition (true when there are none). */
  readonly where: RawBuilder<boolean>;
  /** ORDER BY terms, best match first; null when the query has no words. */
  readonly rank: RawBuilder<unknown> | null;
}

/**
 * What differs between SQLite FTS5 and PostgreSQL full-text search: matching and ranking words, cutting
 * snippets, how a document keeps its facet ids and how rows travel to the tables. Scope, sorting, counting
 * facets and REGEX are the same SQL on both, in search-index.store.ts.
 */
export interface SearchEngine {
  readonly dialect: SqlDialect;
  /** `expression IN (values)`, the values bound as one parameter (a JSON array / an array). */
  inValues(expression: RawBuilder<unknown>, values: readonly (string | number)[]): RawBuilder<boolean>;
  /** The documents `d`, narrowed to those whose text matches every one of `words` (none: all). */
  source(words: readonly TextMatch[]): TextSource;
  /** A subquery of one column `k`: every facet value id of every row of the CTE `hits` (its `facets`). */
  facetValues(): RawBuilder<unknown>;
  /** `d` has the facet value of this id (HAS: a predicate's, TYPE: a type's; 0: one never indexed). */
  hasFacet(id: number): RawBuilder<boolean>;
  /** Adds the facet values the dictionary does not have yet (ids are looked up after). */
  addFacetValues(trx: Transaction<Database>, values: readonly string[]): Promise<void>;
  /** `d`'s text matches the word or phrase (for negated terms). */
  bodyMatches(match: TextMatch): RawBuilder<boolean>;
  /** One of `d`'s literal values of `predicate` matches the word or phrase. */
  fieldMatches(predicate: string, match: TextMatch): RawBuilder<boolean>;
  /** For each document, the engine's fragment of its folded text around `words`, marked (snippet.ts). */
  fragments(
    db: Kysely<Database>,
    words: readonly TextMatch[],
    documents: readonly { id: number; body: string }[],
  ): Promise<Map<number, string>>;
  /** Writes (adds or replaces by IRI) the view's documents, inside the caller's transaction. */
  write(
    trx: Transaction<Database>,
    viewId: number,
    documents: readonly PreparedDocument[],
    now: number,
  ): Promise<void>;
}

/**
 * Rows per write statement. Rows travel as one parameter per column (a JSON array on SQLite, arrays on
 * PostgreSQL), so a statement's text is the same whatever the batch (SQLite keeps its prepared statements
 * by text) and no parameter limit is near; chunks only bound the memory of one statement.
 */
const CHUNK = 2000;

export function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/** Each written IRI's document id, from the rows an upsert returned (every IRI written is among them). */
export function documentIds(rows: readonly { id: number; iri: string }[]): (iri: string) => number {
  const ids = new Map(rows.map((row) => [row.iri, row.id]));
  return (iri) => {
    const id = ids.get(iri);
    if (id === undefined) throw new Error(`the index wrote no row for ${iri}`);
    return id;
  };
}

/** The dictionary ids of these facet values; `add` first adds those it does not have (inside a write). */
export async function facetIds(
  db: Kysely<Database>,
  engine: SearchEngine,
  values: readonly string[],
  add: Transaction<Database> | null,
): Promise<Map<string, number>> {
  const unique = [...new Set(values)];
  if (unique.length === 0) return new Map();
  if (add !== null) await engine.addFacetValues(add, unique);
  const { rows } = await sql<{ id: number; value: string }>`
    select id, value from search_facet_values where ${engine.inValues(sql`value`, unique)}`.execute(
    add ?? db,
  );
  return new Map(rows.map((row) => [row.value, row.id]));
}
