/**
 * The search index store on its own (issue 28): loads N documents into SQLite FTS5 and PostgreSQL
 * full-text search and times the query shapes of the search benchmark at the store level (no HTTP):
 * one word, a phrase, a predicate term with `-has:`, a regular expression, a word matching half the
 * corpus (facet-heavy), and a container's children by name (depth=1&sort=name).
 *
 *   npx tsx bench/search-store.ts [documents=100000] [sqlite|postgres|both]
 *
 * PostgreSQL: TEST_POSTGRES_URL (default the test role and database); a schema of its own, dropped after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { connectDatabase, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrations/migrate.js';
import { createSearchIndexStore } from '../src/search/index/search-index.store.js';
import type {
  IndexQuery,
  QueryTerm,
  SearchDocument,
  SearchField,
  SearchIndexStore,
} from '../src/search/search.js';
import { ensureDatabase } from '../test/support/global-setup.js';
import { TEST_POSTGRES_URL } from '../test/support/test-database.js';

const DC = 'http://purl.org/dc/terms/';
const TITLE = `${DC}title`;
const DATE = `${DC}date`;
const SUBJECT = `${DC}subject`;
const DESCRIPTION = `${DC}description`;
const TYPES = ['http://pcdm.org/models#Object', 'http://schema.org/Photograph', 'http://schema.org/Map'];
const ROOT = 'http://example.org/bench';
const BIG = `${ROOT}/big`;

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(42);
const SYLLABLES = [
  'ka',
  'lo',
  'mer',
  'ti',
  'van',
  'so',
  'ru',
  'bel',
  'din',
  'fa',
  'go',
  'hul',
  'pre',
  'zon',
  'qua',
  'wex',
];
/** A vocabulary of synthetic words, drawn with a Zipf-like skew (rank r has weight 1/r). */
const VOCABULARY = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  let n = i + 17;
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length]!;
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
});
const HARMONIC = VOCABULARY.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
function zipf(): string {
  let target = next() * HARMONIC;
  for (let i = 0; i < VOCABULARY.length; i++) {
    target -= 1 / (i + 1);
    if (target <= 0) return VOCABULARY[i]!;
  }
  return VOCABULARY[VOCABULARY.length - 1]!;
}
const SUBJECTS = Array.from({ length: 200 }, (_, i) => `Subject ${VOCABULARY[i * 7]!}`);

function documents(count: number): SearchDocument[] {
  const docs: SearchDocument[] = [];
  const containers = Array.from({ length: 20 }, (_, i) => `${ROOT}/c${i}`);
  for (const iri of [ROOT, BIG, ...containers])
    docs.push({
      iri,
      parent: iri === ROOT ? null : ROOT,
      name: iri,
      types: [],
      binary: false,
      mimeType: null,
      modified: null,
      fields: [],
    });
  for (let k = 0; docs.length < count; k++) {
    const parent = k % 2 === 0 ? BIG : containers[k % containers.length]!;
    const iri = `${parent}/r${String(k).padStart(7, '0')}`;
    const modified = next() < 0.9 ? Date.UTC(2015, 0, 1) + Math.floor(next() * 10 * 365 * 86_400_000) : null;
    if (next() < 0.1) {
      docs.push({
        iri,
        parent,
        name: `scan-${k}.tif`,
        types: [],
        binary: true,
        mimeType: next() < 0.5 ? 'image/tiff' : 'image/jpeg',
        modified,
        fields: [],
      });
      continue;
    }
    const title = Array.from({ length: 3 + Math.floor(next() * 4) }, zipf);
    // Half the corpus says "common" (the facet-heavy query).
    if (next() < 0.5) title.push('common');
    const fields: SearchField[] = [
      { predicate: TITLE, value: title.join(' '), language: 'en', isIri: false },
    ];
    if (next() < 0.6)
      fields.push({
        predicate: DESCRIPTION,
        value: Array.from({ length: 10 + Math.floor(next() * 20) }, zipf).join(' '),
        language: null,
        isIri: false,
      });
    if (next() < 0.8) {
      const year = 1850 + Math.floor(next() * 170);
      fields.push({
        predicate: DATE,
        value:
          next() < 0.5 ? String(year) : `${year}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}`,
        language: null,
        isIri: false,
      });
    }
    for (let s = Math.floor(next() * 3); s > 0; s--)
      fields.push({
        predicate: SUBJECT,
        value: SUBJECTS[Math.floor(next() * SUBJECTS.length)]!,
        language: null,
        isIri: false,
      });
    docs.push({
      iri,
      parent,
      name: title.join(' '),
      types: TYPES.filter(() => next() < 0.4),
      binary: false,
      mimeType: null,
      modified,
      fields,
    });
  }
  return docs;
}

async function open(
  kind: 'sqlite' | 'postgres',
): Promise<{ handle: DatabaseHandle; done: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-'));
    const handle = connectDatabase({ kind: 'sqlite', file: path.join(dir, 'bench.sqlite') });
    return {
      handle,
      done: async () => {
        await handle.db.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  await ensureDatabase();
  const schema = `bench_search_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const handle = connectDatabase({ kind: 'postgres', url: TEST_POSTGRES_URL, schema });
  await handle.listening;
  return {
    handle,
    done: async () => {
      await handle.db.destroy();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Median and p95 wall time of `runs` runs after one warm-up, and the median CPU time this process spent
 * (on SQLite the whole query runs in this process: its CPU time is what the query costs on an idle
 * machine, whatever else the machine is doing; on PostgreSQL it is only the client's share).
 */
async function time(label: string, runs: number, work: () => Promise<unknown>): Promise<void> {
  await work();
  const took: number[] = [];
  const cpu: number[] = [];
  let answer: unknown;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const used = process.cpuUsage();
    answer = await work();
    const spent = process.cpuUsage(used);
    took.push(performance.now() - start);
    cpu.push((spent.user + spent.system) / 1000);
  }
  took.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const total = (answer as { total?: number }).total;
  const ms = (value: number) => value.toFixed(1).padStart(7);
  console.log(
    `  ${label.padEnd(48)} median ${ms(percentile(took, 50))} ms  p95 ${ms(percentile(took, 95))} ms  cpu ${ms(percentile(cpu, 50))} ms${total === undefined ? '' : `  (${total} hits)`}`,
  );
}

async function run(kind: 'sqlite' | 'postgres', docs: SearchDocument[], runs: number): Promise<void> {
  console.log(`${kind}: ${docs.length} documents`);
  const { handle, done } = await open(kind);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    // SQLITE_CACHE_MB: a page cache larger than SQLite's default 2 MB (the service keeps the default).
    if (kind === 'sqlite' && process.env.SQLITE_CACHE_MB !== undefined)
      await sql.raw(`pragma cache_size = -${Number(process.env.SQLITE_CACHE_MB) * 1024}`).execute(handle.db);
    const view = await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name: 'bench',
        root_uri: ROOT,
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const store: SearchIndexStore = createSearchIndexStore(handle.db, handle.dialect);
    const start = performance.now();
    for (let i = 0; i < docs.length; i += 500) await store.upsert(view.id, docs.slice(i, i + 500));
    const seconds = (performance.now() - start) / 1000;
    console.log(
      `  indexing: ${seconds.toFixed(1)} s, ${Math.round(docs.length / seconds)} documents/s (load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    // As autovacuum does after a bulk load: statistics, and the visibility map index-only scans need.
    if (kind === 'postgres') await sql`vacuum analyze`.execute(handle.db);
    const bounds = { maxValues: 100_000, maxMillis: 5_000 };
    const q = (terms: QueryTerm[], extra: Partial<IndexQuery> = {}): IndexQuery => ({
      scope: { viewId: view.id, within: null, childrenOnly: false },
      terms,
      sort: 'relevance',
      offset: 0,
      limit: 25,
      ...extra,
    });
    const word = (text: string, predicate: string | null = null, prefix = false): QueryTerm => ({
      kind: 'WORD',
      text,
      prefix,
      predicate,
      negated: false,
    });
    const mid = VOCABULARY[60]!;
    const rare = VOCABULARY[2000]!;
    const titled = docs.filter((d) => d.fields[0]?.predicate === TITLE);
    const second = titled[titled.length >> 1]!.fields[0]!.value.split(' ').slice(1, 3).join(' ');
    await time(`one word (${mid})`, runs, () => store.search(q([word(mid)]), bounds));
    await time(`one rare word (${rare})`, runs, () => store.search(q([word(rare)]), bounds));
    await time(`a phrase ("${second}")`, runs, () =>
      store.search(q([{ kind: 'PHRASE', text: second, predicate: null, negated: false }]), bounds),
    );
    await time('title:word -has:date', runs, () =>
      store.search(q([word(mid, TITLE), { kind: 'HAS', predicate: DATE, negated: true }]), bounds),
    );
    await time('a prefix (ka*)', runs, () => store.search(q([word('kalo', null, true)]), bounds));
    await time('regex date:/^[0-9]{4}$/ within c3', runs, () =>
      store.search(
        q([{ kind: 'REGEX', predicate: DATE, pattern: '^[0-9]{4}$', negated: false }], {
          scope: { viewId: view.id, within: `${ROOT}/c3`, childrenOnly: false },
        }),
        bounds,
      ),
    );
    await time('regex date:/^[0-9]{4}$/ whole view', Math.min(runs, 5), () =>
      store.search(q([{ kind: 'REGEX', predicate: DATE, pattern: '^[0-9]{4}$', negated: false }]), bounds),
    );
    await time('facet-heavy word (common, half the corpus)', runs, () =>
      store.search(q([word('common')]), bounds),
    );
    await time('children of big, by name (depth=1)', runs, () =>
      store.search(
        q([], { sort: 'name', scope: { viewId: view.id, within: BIG, childrenOnly: true } }),
        bounds,
      ),
    );
    await time('children of big, by name, page 1000', runs, () =>
      store.search(
        q([], { sort: 'name', offset: 25_000, scope: { viewId: view.id, within: BIG, childrenOnly: true } }),
        bounds,
      ),
    );
    await time('children of big, by name, no facets', runs, () =>
      store.search(
        q([], { sort: 'name', facets: false, scope: { viewId: view.id, within: BIG, childrenOnly: true } }),
        bounds,
      ),
    );
    await time('children of big, by name, page 1000, no facets', runs, () =>
      store.search(
        q([], {
          sort: 'name',
          offset: 25_000,
          facets: false,
          scope: { viewId: view.id, within: BIG, childrenOnly: true },
        }),
        bounds,
      ),
    );
    await time('whole view, newest first', runs, () => store.search(q([]), bounds));
    await time('matching: all of c3 (QUERY scope)', Math.min(runs, 5), async () => {
      const iris: string[] = [];
      for await (const iri of store.matching(
        { viewId: view.id, within: `${ROOT}/c3`, childrenOnly: false },
        [],
        bounds,
      ))
        iris.push(iri);
      return { total: iris.length };
    });
    console.log(`  (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)`);
  } finally {
    await done();
  }
}

const count = Number(process.argv[2] ?? 100_000);
const which = process.argv[3] ?? 'both';
const docs = documents(count);
const runs = Number(process.env.RUNS ?? 20);
if (which !== 'postgres') await run('sqlite', docs, runs);
if (which !== 'sqlite') await run('postgres', docs, runs);
