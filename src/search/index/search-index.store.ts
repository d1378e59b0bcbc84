import { performance } from 'node:perf_hooks';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, SqlDialect } from '../../db/database.js';
import { RDF_TYPE } from '../../linked-data/rdf/vocab.js';
import type {
  Comparison,
  FacetCount,
  IndexHit,
  IndexQuery,
  IndexResults,
  QueryTerm,
  RegexBounds,
  SearchDocument,
  SearchFacets,
  SearchIndexStore,
  SearchScope,
} from '../search.js';
import { PostgresEngine } from './postgres-engine.js';
import { matchingDocuments, tooManyValues, type CandidateValue } from './regex-match.js';
import {
  FACET_MEDIA_TYPE,
  FACET_PREDICATE,
  FACET_TYPE,
  facetIds,
  prepare,
  type SearchEngine,
  type TextSource,
} from './search-engine.js';
import { snippetOf } from './snippet.js';
import { SqliteEngine } from './sqlite-engine.js';
import { textMatchOf, type TextMatch } from './text-match.js';

/** Values per facet list (DECISIONS.md §12), the most frequent first. */
export const FACET_LIMIT = 50;
const NO_FACETS: SearchFacets = { types: [], predicates: [], mimeTypes: [] };

/** IRIs per page of `matching` and per statement of `summaries` and `remove`. */
const PAGE = 1000;
/** `naming` compares this many code points through the index, then the whole value. */
const OBJECT_KEY_LENGTH = 200;

const COMPARISONS: Record<Comparison, RawBuilder<unknown>> = {
  '>': sql.raw('>'),
  '>=': sql.raw('>='),
  '<': sql.raw('<'),
  '<=': sql.raw('<='),
};

/** A query's documents: where they come from and every condition, REGEX terms already resolved to ids. */
interface Selection {
  readonly source: TextSource;
  readonly filter: RawBuilder<boolean>;
  /** The positive words and phrases (any predicate): what snippets show. */
  readonly words: readonly TextMatch[];
}

/**
 * The search index behind one interface on both engines (DECISIONS.md §12, migration 014). Every term
 * becomes a condition on the documents `d`, each with bound parameters; the engine (FTS5 or PostgreSQL
 * full text) supplies the word conditions, ranking and snippets. Negation is the complement within the
 * scope: `-word`, `-has:`, `-type:`, `-modified:…` and a negated regular expression also keep the
 * documents that have no value to test at all.
 */
export class SqlSearchIndexStore implements SearchIndexStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: SearchEngine,
    private readonly now: () => number = Date.now,
  ) {}

  async upsert(viewId: number, documents: readonly SearchDocument[]): Promise<void> {
    if (documents.length === 0) return;
    // The last document given for an IRI wins, as if they had been written one after the other.
    const latest = new Map(documents.map((document) => [document.iri, document]));
    const prepared = [...latest.values()].map(prepare);
    const now = this.now();
    await this.db.transaction().execute((trx) => this.engine.write(trx, viewId, prepared, now));
  }

  async remove(viewId: number, iris: readonly string[]): Promise<void> {
    const unique = [...new Set(iris)];
    if (unique.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < unique.length; i += PAGE) {
        await sql`
          delete from search_documents
          where view_id = ${viewId} and ${this.engine.inValues(sql`iri`, unique.slice(i, i + PAGE))}`.execute(
          trx,
        );
      }
    });
  }

  async clear(viewId: number): Promise<void> {
    await sql`delete from search_documents where view_id = ${viewId}`.execute(this.db);
  }

  async removeIndexedBefore(viewId: number, within: string | null, time: number): Promise<number> {
    const scope = scopeConditions({ viewId, within, childrenOnly: false });
    const result = await sql`
      delete from search_documents where id in (
        select d.id from search_documents d where ${scope} and d.indexed_at < ${time})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  async count(viewId: number): Promise<number> {
    const row = await this.db
      .selectFrom('search_documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('view_id', '=', viewId)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  async search(query: IndexQuery, bounds: RegexBounds): Promise<IndexResults> {
    const selection = await this.select(query.scope, query.terms, bounds);
    const { total, facets } =
      query.facets === false
        ? { total: await this.total(selection), facets: NO_FACETS }
        : await this.stats(selection);
    const hits = query.limit > 0 && total > query.offset ? await this.page(selection, query) : [];
    return { total, hits, facets };
  }

  async *matching(
    scope: SearchScope,
    terms: readonly QueryTerm[],
    bounds: RegexBounds,
  ): AsyncIterable<string> {
    const { source, filter } = await this.select(scope, terms, bounds);
    let after: string | null = null;
    for (;;) {
      const { rows }: { rows: { iri: string }[] } = await sql<{ iri: string }>`
        select d.iri from ${source.from}
        where ${filter} ${after === null ? sql`` : sql`and d.iri > ${after}`}
        order by d.iri limit ${PAGE}`.execute(this.db);
      for (const row of rows) yield row.iri;
      const last = rows.at(-1);
      if (rows.length < PAGE || last === undefined) return;
      after = last.iri;
    }
  }

  async naming(viewId: number, predicate: string, iri: string): Promise<string[]> {
    const key = Array.from(iri).slice(0, OBJECT_KEY_LENGTH).join('');
    const indexed =
      this.engine.dialect === 'postgres'
        ? sql`left(f.value, ${sql.lit(OBJECT_KEY_LENGTH)})`
        : sql`substr(f.value, 1, ${sql.lit(OBJECT_KEY_LENGTH)})`;
    const { rows } = await sql<{ iri: string }>`
      select distinct d.iri from search_fields f join search_documents d on d.id = f.document_id
      where f.predicate = ${predicate} and f.is_iri = 1 and ${indexed} = ${key} and f.value = ${iri}
        and d.view_id = ${viewId}
      order by d.iri`.execute(this.db);
    return rows.map((row) => row.iri);
  }

  async summaries(
    viewId: number,
    iris: readonly string[],
  ): Promise<Map<string, { name: string; binary: boolean }>> {
    const unique = [...new Set(iris)];
    const found = new Map<string, { name: string; binary: boolean }>();
    for (let i = 0; i < unique.length; i += PAGE) {
      const { rows } = await sql<{ iri: string; name: string; is_binary: number }>`
        select iri, name, is_binary from search_documents
        where view_id = ${viewId} and ${this.engine.inValues(sql`iri`, unique.slice(i, i + PAGE))}`.execute(
        this.db,
      );
      for (const row of rows) found.set(row.iri, { name: row.name, binary: row.is_binary === 1 });
    }
    return found;
  }

  /** Every term as a condition on `d`; REGEX terms are run (bounded) and become lists of document ids. */
  private async select(
    scope: SearchScope,
    terms: readonly QueryTerm[],
    bounds: RegexBounds,
  ): Promise<Selection> {
    const words: TextMatch[] = [];
    const conditions: RawBuilder<boolean>[] = [scopeConditions(scope)];
    // HAS and TYPE test the documents' facet ids: one look-up for all of them (0: never indexed).
    const ids = await facetIds(
      this.db,
      this.engine,
      terms.flatMap((term) =>
        term.kind === 'HAS'
          ? [`${FACET_PREDICATE}${term.predicate}`]
          : term.kind === 'TYPE'
            ? [`${FACET_TYPE}${term.type}`]
            : [],
      ),
      null,
    );
    const hasFacet = (value: string) => this.engine.hasFacet(ids.get(value) ?? 0);
    const regexes: Extract<QueryTerm, { kind: 'REGEX' }>[] = [];
    for (const term of terms) {
      switch (term.kind) {
        case 'WORD':
        case 'PHRASE': {
          const match = textMatchOf(term);
          if (!term.negated) words.push(match);
          if (term.predicate !== null)
            conditions.push(negate(term.negated, this.engine.fieldMatches(term.predicate, match)));
          else if (term.negated) conditions.push(negate(true, this.engine.bodyMatches(match)));
          break;
        }
        case 'HAS':
          conditions.push(
            negate(
              term.negated,
              // Types are kept apart from statements: `has:rdf:type` asks whether there are any.
              term.predicate === RDF_TYPE
                ? sql<boolean>`d.types <> '[]'`
                : hasFacet(`${FACET_PREDICATE}${term.predicate}`),
            ),
          );
          break;
        case 'TYPE':
          conditions.push(negate(term.negated, hasFacet(`${FACET_TYPE}${term.type}`)));
          break;
        case 'BINARY':
          conditions.push(sql<boolean>`d.is_binary = ${term.value !== term.negated ? 1 : 0}`);
          break;
        case 'MODIFIED': {
          const compared = sql<boolean>`d.modified ${COMPARISONS[term.comparison]} ${term.time}`;
          conditions.push(term.negated ? sql<boolean>`(d.modified is null or not (${compared}))` : compared);
          break;
        }
        case 'REGEX':
          regexes.push(term);
          break;
      }
    }
    // Every positive word narrows the full-text source (a word of one predicate is a word of the whole
    // text too), which ranks and drives the query; a predicate's own condition is checked on top.
    const source = this.engine.source(words);
    const filter = (): RawBuilder<boolean> =>
      sql<boolean>`${sql.join([source.where, ...conditions], sql` and `)}`;
    let examined = 0;
    const started = performance.now();
    for (const term of regexes) {
      const remaining = bounds.maxValues - examined;
      const { rows } = await sql<CandidateValue>`
        select f.document_id as id, f.value from search_fields f
        where f.predicate = ${term.predicate}
          and f.document_id in (select d.id from ${source.from} where ${filter()})
        limit ${remaining + 1}`.execute(this.db);
      if (rows.length > remaining) throw tooManyValues(term.pattern, bounds);
      examined += rows.length;
      const found = matchingDocuments(term.pattern, rows, bounds, started);
      conditions.push(negate(term.negated, this.engine.inValues(sql`d.id`, [...found])));
    }
    return { source, filter: filter(), words };
  }

  private async total(selection: Selection): Promise<number> {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from ${selection.source.from} where ${selection.filter}`.execute(this.db);
    return rows[0]?.n ?? 0;
  }

  /**
   * The total and the facets over every hit, in one statement: the hits' rows are read once, the ids in
   * their `facets` column counted, and the most frequent of each kind named from the dictionary.
   */
  private async stats(selection: Selection): Promise<{ total: number; facets: SearchFacets }> {
    const { rows } = await sql<{ kind: string; value: string; n: number }>`
      with hits as materialized (select d.facets from ${selection.source.from} where ${selection.filter}),
      counted as (select k, count(*) as n from ${this.engine.facetValues()} as facet_values group by k)
      select kind, value, n from (
        select substr(v.value, 1, 1) as kind, substr(v.value, 2) as value, c.n as n,
          row_number() over (partition by substr(v.value, 1, 1) order by c.n desc, v.value) as r
        from counted c join search_facet_values v on v.id = c.k
        union all
        select '0', '', count(*), 1 from hits
      ) ranked
      where r <= ${FACET_LIMIT}
      order by kind, r`.execute(this.db);
    let total = 0;
    const lists = new Map<string, FacetCount[]>([
      [FACET_TYPE, []],
      [FACET_PREDICATE, []],
      [FACET_MEDIA_TYPE, []],
    ]);
    for (const row of rows) {
      if (row.kind === '0') total = row.n;
      else lists.get(row.kind)?.push({ value: row.value, count: row.n });
    }
    const list = (kind: string): FacetCount[] => lists.get(kind) ?? [];
    return {
      total,
      facets: {
        types: list(FACET_TYPE),
        predicates: list(FACET_PREDICATE),
        mimeTypes: list(FACET_MEDIA_TYPE),
      },
    };
  }

  /** One page of hits in the query's order (each order ends with the IRI, so pages never shift). */
  private async page(selection: Selection, query: IndexQuery): Promise<IndexHit[]> {
    const { source, filter, words } = selection;
    const order =
      query.sort === 'name'
        ? sql`d.name_key, d.iri`
        : query.sort === 'relevance' && source.rank !== null
          ? sql`${source.rank}, d.iri`
          : sql`d.modified desc nulls last, d.iri`;
    // The page's ids first, sorting only what the order needs; then the page's rows (a sort that carried
    // every column of every hit would move each hit's text through the sorter).
    const { rows: page } = await sql<{ iri: string }>`
      select d.iri from ${source.from} where ${filter}
      order by ${order} limit ${query.limit} offset ${query.offset}`.execute(this.db);
    if (page.length === 0) return [];
    // By IRI (the view's unique index), so that a page in name order is read from its index alone.
    const { rows } = await sql<{
      id: number;
      iri: string;
      name: string;
      types: string;
      is_binary: number;
      modified: number | null;
      body: string | null;
    }>`
      select d.id, d.iri, d.name, d.types, d.is_binary, d.modified,
        ${words.length > 0 ? sql`d.body` : sql`null`} as body
      from search_documents d
      where d.view_id = ${query.scope.viewId} and ${this.engine.inValues(
        sql`d.iri`,
        page.map((row) => row.iri),
      )}`.execute(this.db);
    const byIri = new Map(rows.map((row) => [row.iri, { ...row, body: row.body ?? '' }]));
    const documents = page.flatMap((row) => {
      const document = byIri.get(row.iri);
      return document === undefined ? [] : [document];
    });
    const fragments =
      words.length > 0 && documents.length > 0
        ? await this.engine.fragments(this.db, words, documents)
        : new Map<number, string>();
    return documents.map((row) => ({
      iri: row.iri,
      name: row.name,
      types: JSON.parse(row.types) as string[],
      binary: row.is_binary === 1,
      modified: row.modified,
      snippet: words.length > 0 ? snippetOf(row.body, fragments.get(row.id) ?? row.body.slice(0, 300)) : null,
    }));
  }
}

/** The view, and within it the container's resources (DECISIONS.md §12): itself and every IRI below it. */
function scopeConditions(scope: SearchScope): RawBuilder<boolean> {
  const view = sql<boolean>`d.view_id = ${scope.viewId}`;
  const { within } = scope;
  if (within === null) return view;
  if (scope.childrenOnly) return sql<boolean>`${view} and d.parent = ${within}`;
  // IRIs below `within`: from `within/` up to, not including, `within0` ('0' follows '/'); an LDP
  // container's IRI may already end in '/'. Text order is code-point order (collate "C" on PostgreSQL).
  const below = within.endsWith('/') ? within : `${within}/`;
  const end = `${below.slice(0, -1)}0`;
  // One range the index can walk (`within` sorts before `within/`), then what lies between them
  // (`within-old`, `within.txt`) left out.
  return sql<boolean>`${view} and d.iri >= ${within} and d.iri < ${end} and (d.iri = ${within} or d.iri >= ${below})`;
}

function negate(negated: boolean, condition: RawBuilder<boolean>): RawBuilder<boolean> {
  return negated ? sql<boolean>`not (${condition})` : condition;
}

/**
 * The index on the service's database: FTS5 on SQLite, full-text search on PostgreSQL. `now` stamps what
 * `upsert` writes (the sweep of `removeIndexedBefore` compares with it).
 */
export function createSearchIndexStore(
  db: Kysely<Database>,
  dialect: SqlDialect,
  now: () => number = Date.now,
): SearchIndexStore {
  return new SqlSearchIndexStore(db, dialect === 'postgres' ? new PostgresEngine() : new SqliteEngine(), now);
}
