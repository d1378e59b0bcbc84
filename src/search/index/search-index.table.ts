import type { Generated } from 'kysely';

/**
 * The search index's tables (migration 014). The full-text parts (SQLite's FTS5 tables, PostgreSQL's
 * `tsv` columns) are reached through raw SQL only, so they are not typed here.
 */
export interface SearchDocumentTable {
  id: Generated<number>;
  view_id: number;
  iri: string;
  parent: string | null;
  name: string;
  /** The folded name (search/index/fold.ts), cut to a bounded length: what `sort=name` orders by. */
  name_key: string;
  /** JSON text of the type IRIs, in the document's order. */
  types: string;
  is_binary: number;
  mime_type: string | null;
  modified: number | null;
  /** When the document was last written (epoch ms): the INDEX job's sweep removes what it did not see. */
  indexed_at: number;
  /** The literal values (and a name that is none of them) as written, the text snippets are cut from. */
  body: string;
  /** SQLite: the ids of the document's facet values as `,3,17,42,` (`,` for none); PostgreSQL: integer[]. */
  facets: string;
}

/** Every facet value once: a kind digit (1 type, 2 predicate, 3 media type), then the value. */
export interface SearchFacetValueTable {
  id: Generated<number>;
  value: string;
}

export interface SearchFieldTable {
  /** SQLite: assigned by the store (the FTS rowid of the value); PostgreSQL: generated. */
  id: Generated<number>;
  document_id: number;
  predicate: string;
  value: string;
  language: string | null;
  is_iri: number;
}
