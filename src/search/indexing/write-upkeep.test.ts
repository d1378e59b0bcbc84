import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import type { RepositoryAdapter, ResourceDescription } from '../../repository-adapters/repository-adapter.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import { createSearchIndexStore } from '../index/search-index.store.js';
import type { SearchDocument, SearchIndexStore } from '../search.js';
import { SearchViewStore } from '../search-view.store.js';
import type { WrittenView } from './index-upkeep.js';
import { IndexWriteUpkeep } from './write-upkeep.js';

/**
 * The upkeep of an external view's index between INDEX jobs (DECISIONS.md §12), on the real index and view
 * stores: what it reads again and writes, its bounds (describes at once, resources waiting), and that no
 * failure reaches the writer. The repository is a stand-in that counts its describes.
 */
const ROOT = 'http://example.org/rest/';
const TITLE = 'http://purl.org/dc/terms/title';
const uri = (n: number) => `${ROOT}r${n}`;

let database: TestDatabase;
let handle: DatabaseHandle;
let index: SearchIndexStore;
let views: SearchViewStore;
let viewId: number;
let warnings: string[];

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  index = createSearchIndexStore(handle.db, handle.dialect);
  views = new SearchViewStore(handle.db);
  viewId = (
    await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name: 'view',
        root_uri: ROOT,
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  warnings = [];
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

/** A repository whose resources are titled "Title <uri>" (`titles` overrides), counting describes. */
function repository(options: { failing?: (uri: string) => boolean; titles?: Map<string, string> } = {}) {
  const counts = { described: [] as string[], inFlight: 0, maxInFlight: 0 };
  const adapter = {
    kind: 'FEDORA',
    async describe(target: string): Promise<ResourceDescription> {
      counts.described.push(target);
      counts.inFlight += 1;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (options.failing?.(target) === true) throw new Error(`GET ${target} failed: 503`);
        const title = options.titles?.get(target) ?? `Title ${target}`;
        return {
          uri: target,
          isBinary: false,
          quads: [quad(namedNode(target), namedNode(TITLE), literal(title))],
          children: [],
          parent: target === ROOT ? undefined : ROOT,
        };
      } finally {
        counts.inFlight -= 1;
      }
    },
  } as unknown as RepositoryAdapter;
  const view: WrittenView = { viewId, rootUri: ROOT, adapter };
  return { view, counts };
}

function upkeep(settings: Partial<ConstructorParameters<typeof IndexWriteUpkeep>[4]> = {}) {
  return new IndexWriteUpkeep(
    index,
    views,
    (message) => warnings.push(message),
    () => false,
    { concurrency: 2, maxPending: 100, batchSize: 8, maxTransactions: 10, ...settings },
  );
}

const doc = (iri: string, name = `Old ${iri}`): SearchDocument => ({
  iri,
  parent: ROOT,
  name,
  types: [],
  binary: false,
  mimeType: null,
  modified: null,
  fields: [],
});

async function names(): Promise<Map<string, string>> {
  const iris: string[] = [];
  for await (const iri of index.matching({ viewId, within: null, childrenOnly: false }, [], {
    maxValues: 1000,
    maxMillis: 1000,
  }))
    iris.push(iri);
  const summaries = await index.summaries(viewId, iris);
  return new Map([...summaries].map(([iri, summary]) => [iri, summary.name]));
}

describe('IndexWriteUpkeep', () => {
  it('reads the written resources again, a few at once, and writes their documents', async () => {
    await views.markIndexed(viewId, 1, null);
    const { view, counts } = repository();
    const keeper = upkeep();
    keeper.written(view, { uris: Array.from({ length: 20 }, (_, k) => uri(k + 1)), deleted: false });
    await keeper.idle();
    expect(counts.described).toHaveLength(20);
    expect(counts.maxInFlight).toBeLessThanOrEqual(2);
    const indexed = await names();
    expect(indexed.size).toBe(20);
    expect(indexed.get(uri(7))).toBe(`Title ${uri(7)}`);
    expect(warnings).toEqual([]);
  });

  it('a deletion removes the resource and what it contained, and reads its container again', async () => {
    await index.upsert(viewId, [doc(ROOT), doc(uri(1)), doc(`${uri(1)}/child`), doc(uri(2))]);
    const { view, counts } = repository();
    const keeper = upkeep();
    keeper.written(view, { uris: [uri(1)], deleted: true });
    await keeper.idle();
    expect(counts.described).toEqual([ROOT]);
    expect(await names()).toEqual(
      new Map([
        [ROOT, `Title ${ROOT}`],
        [uri(2), `Old ${uri(2)}`],
      ]),
    );
  });

  it('follows only views whose index exists and that the feed does not keep', async () => {
    const { view, counts } = repository();
    const keeper = upkeep();
    // No index yet: the first INDEX job will find the resource.
    keeper.written(view, { uris: [uri(1)], deleted: false });
    await keeper.idle();
    // The embedded repository's feed keeps this view.
    await views.setEmbeddedBase(viewId, 'http://example.org/rest/', ROOT);
    await views.markIndexed(viewId, 1, null);
    keeper.written(view, { uris: [uri(2)], deleted: false });
    await keeper.idle();
    expect(counts.described).toEqual([]);
    expect((await names()).size).toBe(0);
    // A view told embedded by its root is not even queued.
    const embedded = new IndexWriteUpkeep(
      index,
      views,
      (message) => warnings.push(message),
      () => true,
    );
    embedded.written(view, { uris: [uri(3)], deleted: false });
    await embedded.idle();
    expect(counts.described).toEqual([]);
  });

  it('an INDEX job that has begun to fill the index is enough to follow the view', async () => {
    await index.upsert(viewId, [doc(uri(9))]);
    const { view } = repository();
    const keeper = upkeep();
    keeper.written(view, { uris: [uri(1)], deleted: false });
    await keeper.idle();
    expect((await names()).get(uri(1))).toBe(`Title ${uri(1)}`);
  });

  it('past its bound it drops writes with a warning; what it kept is indexed', async () => {
    await views.markIndexed(viewId, 1, null);
    const { view, counts } = repository();
    const keeper = upkeep({ maxPending: 5, batchSize: 5 });
    keeper.written(view, { uris: Array.from({ length: 12 }, (_, k) => uri(k + 1)), deleted: false });
    await keeper.idle();
    expect(counts.described).toHaveLength(5);
    expect(warnings).toEqual([
      'Search index upkeep: 7 written resources were not indexed (more than 5 waiting); the next INDEX job of their views catches up',
    ]);
  });

  it('a resource that cannot be read is told to warn; the others are indexed; the writer never hears', async () => {
    await views.markIndexed(viewId, 1, null);
    const { view } = repository({ failing: (target) => target === uri(2) });
    const keeper = upkeep();
    expect(() => {
      keeper.written(view, { uris: [uri(1), uri(2), uri(3)], deleted: false });
    }).not.toThrow();
    await keeper.idle();
    expect([...(await names()).keys()].sort()).toEqual([uri(1), uri(3)]);
    expect(warnings).toEqual([
      `Search index upkeep of repository view ${viewId}: could not read ${uri(2)} (GET ${uri(2)} failed: 503); the next INDEX job catches up`,
    ]);
    // The index itself failing (here: its database is gone) is told as well.
    await handle.db.destroy();
    keeper.written(view, { uris: [uri(4)], deleted: false });
    await keeper.idle();
    expect(warnings.at(-1)).toMatch(new RegExp(`^Search index upkeep of repository view ${viewId} failed: `));
    handle = connectDatabase(database.config);
  });

  it('writes inside a transaction wait for its commit; a rollback forgets them', async () => {
    await views.markIndexed(viewId, 1, null);
    const { view, counts } = repository();
    const keeper = upkeep();
    keeper.written(view, { uris: [uri(1)], deleted: false, txId: 'a' });
    keeper.written(view, { uris: [uri(2)], deleted: false, txId: 'b' });
    await keeper.idle();
    expect(counts.described).toEqual([]);
    keeper.transactionEnded(view, 'b', false);
    keeper.transactionEnded(view, 'a', true);
    await keeper.idle();
    expect(counts.described).toEqual([uri(1)]);
  });

  it('after close it takes nothing more', async () => {
    await views.markIndexed(viewId, 1, null);
    const { view, counts } = repository();
    const keeper = upkeep();
    await keeper.close();
    keeper.written(view, { uris: [uri(1)], deleted: false });
    await keeper.idle();
    expect(counts.described).toEqual([]);
  });
});
