import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../../db/connect.js';
import { migrateToLatest } from '../../db/migrations/migrate.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import { createAdapter } from '../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { SpreadsheetStore } from '../../spreadsheets/import/spreadsheet.store.js';
import type { SheetColumn, SheetRow } from '../../spreadsheets/spreadsheet.js';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  counting,
  DC_SCHEMA,
  retitle,
  startEmbeddedRepository,
  TITLE,
  titled,
  titlesOf,
} from '../../../test/support/curation-jobs/work.js';
import { CurationJobStore } from '../curation-job.store.js';
import type { JobTarget } from '../work/job-work.js';
import { JobRunner } from './job-runner.js';

const CREATOR = `${NS.dc}creator`;
const COLUMNS: SheetColumn[] = [
  { header: 'dc:title[en]', predicate: TITLE, language: 'en' },
  { header: 'dc:creator', predicate: CREATOR, language: null },
];

let database: TestDatabase;
let handle: DatabaseHandle;
let jobs: CurationJobStore;
let sheets: SpreadsheetStore;
let viewId: number;

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  jobs = new CurationJobStore(handle.db, handle.dialect);
  sheets = new SpreadsheetStore(handle.db);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'view',
      root_uri: 'http://example.org/rest/',
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  viewId = view.id;
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

/** A SPREADSHEET job (a dry run) on `rows`, staged as the upload stages them. */
async function sheetJob(contextUri: string, rows: readonly SheetRow[]): Promise<number> {
  const id = await sheets.create({
    repositoryViewId: viewId,
    createdBy: 1,
    created: Date.now(),
    columns: COLUMNS,
  });
  await sheets.stageRows(id, rows);
  await sheets.finish(id, rows.length);
  const summary = { rows: rows.length, columns: COLUMNS.map((column) => column.header) };
  const job = await jobs.create({
    kind: 'SPREADSHEET',
    repositoryViewId: viewId,
    contextUri,
    scope: 'SUBTREE',
    spreadsheet: { id, summary },
    operators: [],
    dryRun: true,
    createdBy: 1,
    created: Date.now(),
  });
  return job.id;
}

function runnerOn(target: JobTarget, withSheets = true): JobRunner {
  return new JobRunner(
    {
      store: jobs,
      openTarget: () => Promise.resolve(target),
      operators: () => Promise.resolve([]),
      ...(withSheets && { sheets }),
    },
    { concurrency: 2, maxResources: 1, leaseMs: 30_000, heartbeatMs: 10 },
  );
}

const etagOf = async (adapter: RepositoryAdapter, uri: string) => (await adapter.describe(uri)).etag ?? null;

function suite(name: string, setUp: () => Promise<{ adapter: RepositoryAdapter; rootUri: string }>) {
  describe(name, () => {
    let adapter: RepositoryAdapter;
    let target: JobTarget;
    let rootUri: string;

    beforeAll(async () => {
      ({ adapter, rootUri } = await setUp());
      target = { adapter, schemas: [DC_SCHEMA], rootUri };
    });

    /** A collection with two titled resources, and a sheet editing one, keeping one, adding one, naming one unknown. */
    async function previewed() {
      const col = await adapter.createChild(rootUri, []);
      const [a, b] = [await titled(adapter, col, 'draft a'), await titled(adapter, col, 'kept b')];
      const id = await sheetJob(col, [
        { row: 2, contextUri: a, etag: await etagOf(adapter, a), cells: ['final a', 'Ada'] },
        { row: 3, contextUri: b, etag: await etagOf(adapter, b), cells: ['kept b', ''] },
        { row: 4, contextUri: '+', etag: null, cells: ['new one', 'Grace'] },
        { row: 5, contextUri: `${col}/missing`, etag: null, cells: ['x', ''] },
      ]);
      await runnerOn(target).handle(id);
      return { col, a, b, id };
    }

    it('previews every row, applies in one go (the + row created), and undo restores everything', async () => {
      const { col, a, b, id } = await previewed();
      // The MAPPING scope limit (1) does not apply: four rows.
      expect(await jobs.get(id)).toMatchObject({
        state: 'PREVIEWED',
        progress: { total: 4, done: 4, changed: 2, failed: 1 },
        message: '2 of 4 resources change; 1 failed',
      });
      const changes = await jobs.items.changes(id, 0, 10);
      expect(changes.map((item) => [item.row, item.contextUri, item.error])).toEqual([
        [2, a, null],
        [4, '+4', null],
        [5, `${col}/missing`, `Row 5: ${col}/missing is not in the repository`],
      ]);

      await jobs.moveState(id, 'apply');
      await runnerOn(target).handle(id);
      expect(await jobs.get(id)).toMatchObject({ state: 'APPLIED', message: '2 resources written' });
      const created = (await jobs.items.changes(id, 0, 10))[1]!.createdUri!;
      expect((await adapter.describe(col)).children).toContain(created);
      expect(await titlesOf(adapter, created)).toEqual(['new one']);
      expect(await titlesOf(adapter, a)).toEqual(['final a']);
      expect(await titlesOf(adapter, b)).toEqual(['kept b']);

      await jobs.moveState(id, 'undo');
      await runnerOn(target).handle(id);
      expect(await jobs.get(id)).toMatchObject({ state: 'UNDONE', message: '2 resources restored' });
      expect(await titlesOf(adapter, a)).toEqual(['draft a']);
      expect([...(await adapter.describe(col)).children].sort()).toEqual([a, b].sort());
      await adapter.delete(col);
    });

    it('a row edited in the repository after the export fails as a conflict at preview', async () => {
      const col = await adapter.createChild(rootUri, []);
      const a = await titled(adapter, col, 'draft a');
      const exported = await etagOf(adapter, a);
      await retitle(adapter, a, 'draft a', 'edited');
      const id = await sheetJob(col, [{ row: 2, contextUri: a, etag: exported, cells: ['final a', ''] }]);
      await runnerOn(target).handle(id);
      const [item] = await jobs.items.changes(id, 0, 10);
      expect(item?.error).toMatch(new RegExp(`^Row 2: ${a} changed since the sheet was exported \\(ETag `));
      await adapter.delete(col);
    });

    it('a creation that fails: FEDORA rolls back and forgets what it created; LDP keeps it, and undo deletes it', async () => {
      const col = await adapter.createChild(rootUri, []);
      const id = await sheetJob(col, [
        { row: 2, contextUri: '+', etag: null, cells: ['first', ''] },
        { row: 3, contextUri: '+', etag: null, cells: ['second', ''] },
      ]);
      await runnerOn(target).handle(id);
      let creations = 0;
      const failing: JobTarget = {
        ...target,
        adapter: {
          ...counting(adapter).adapter,
          createChild: (parent, statements, tx) =>
            ++creations === 2
              ? Promise.reject(new Error('POST failed: 500'))
              : adapter.createChild(parent, statements, tx),
        },
      };
      await jobs.moveState(id, 'apply');
      await runnerOn(failing).handle(id);
      const failed = await jobs.get(id);
      expect(failed?.state).toBe('FAILED');
      const shown = async () => (await jobs.items.changes(id, 0, 10)).map((item) => item.createdUri);
      if (adapter.transactions !== undefined) {
        expect(failed?.message).toMatch(/nothing was written \(the transaction was rolled back\)$/u);
        expect((await adapter.describe(col)).children).toEqual([]);
        expect(await shown()).toEqual([null, null]);
        expect(await jobs.items.hasWrittenItems(id)).toBe(false);
      } else {
        const [first] = (await adapter.describe(col)).children;
        expect(failed?.message).toMatch(new RegExp(`written before the failure: ${first}$`, 'u'));
        expect(await shown()).toEqual([first, null]);
        await jobs.moveState(id, 'undoPartial');
        await runnerOn(target).handle(id);
        expect(await jobs.get(id)).toMatchObject({ state: 'UNDONE', message: '1 resource restored' });
        expect((await adapter.describe(col)).children).toEqual([]);
      }
      await adapter.delete(col);
    });

    it('a resource edited after the preview fails the apply with nothing written, the + row not created', async () => {
      const { col, a, b, id } = await previewed();
      await retitle(adapter, a, 'draft a', 'edited after the preview');
      await jobs.moveState(id, 'apply');
      await runnerOn(target).handle(id);
      expect(await jobs.get(id)).toMatchObject({ state: 'FAILED' });
      expect((await jobs.get(id))?.message).toContain(a);
      expect([...(await adapter.describe(col)).children].sort()).toEqual([a, b].sort());
      expect(await titlesOf(adapter, a)).toEqual(['edited after the preview']);
      expect(await jobs.items.hasWrittenItems(id)).toBe(false);
      await adapter.delete(col);
    });
  });
}

let app: TestApp | undefined;
suite('A SPREADSHEET job on the embedded repository (FEDORA)', async () => {
  const started = await startEmbeddedRepository();
  app = started.t;
  return started;
});
afterAll(async () => {
  await app?.close();
});
suite('A SPREADSHEET job on a Community Solid Server (LDP)', () => {
  const rootUri = inject('cssBaseUrl');
  return Promise.resolve({ adapter: createAdapter({ type: 'LDP', rootUri }), rootUri });
});

describe('A SPREADSHEET job without its sheet', () => {
  const target = {
    adapter: { kind: 'FEDORA' } as unknown as RepositoryAdapter,
    schemas: [DC_SCHEMA],
    rootUri: 'http://example.org/rest/',
  };

  it('fails when the runner has no staged sheets, or the job names none', async () => {
    const id = await sheetJob('http://example.org/rest/col', []);
    await runnerOn(target, false).handle(id);
    expect(await jobs.get(id)).toMatchObject({
      state: 'FAILED',
      message: 'A SPREADSHEET job needs the staged sheets, which this process does not have',
    });
    const unnamed = await jobs.create({
      kind: 'SPREADSHEET',
      repositoryViewId: viewId,
      contextUri: 'http://example.org/rest/col',
      scope: 'SUBTREE',
      operators: [],
      dryRun: true,
      createdBy: 1,
      created: Date.now(),
    });
    await runnerOn(target).handle(unnamed.id);
    expect(await jobs.get(unnamed.id)).toMatchObject({
      state: 'FAILED',
      message: 'This SPREADSHEET job names no staged sheet; nothing was written',
    });
  });

  it('fails naming the sheet when it is gone', async () => {
    const id = await sheetJob('http://example.org/rest/col', []);
    const sheetId = (await jobs.get(id))!.spreadsheetId!;
    await sheets.discard(sheetId);
    await runnerOn(target).handle(id);
    expect(await jobs.get(id)).toMatchObject({
      state: 'FAILED',
      message: `The job's sheet could not be read: Spreadsheet ${sheetId} does not exist (any longer)`,
    });
  });
});
