import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { CurationJobStore } from '../curation-jobs/curation-job.store.js';
import type { JobTarget, RunItem, RunSink } from '../curation-jobs/work/job-work.js';
import { literal } from '../linked-data/rdf/terms.js';
import { NS } from '../linked-data/rdf/vocab.js';
import { validateBag } from '../../test/support/bagit/validate-bag.js';
import { embeddedSite, type SheetSite } from '../../test/support/spreadsheets/sheet-site.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { BagExports } from './bag-export.js';
import { ExportFileStore } from './export-files.store.js';

/**
 * A bag is resumable (DECISIONS.md §15): an EXPORT run stopped part way (the app closing) leaves complete
 * files whose rows are recorded; the next run — a new writer on the same database, as another app would
 * build — skips them, so no file is written twice, and finishes a bag that validates.
 */
describe('an EXPORT run stopped part way and resumed by another writer', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let site: SheetSite;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bag-resume-'));

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = connectDatabase(database.config);
    await migrateToLatest(handle.db, handle.dialect);
    site = await embeddedSite();
  });
  afterAll(async () => {
    await site.t.close();
    await handle.db.destroy();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function sink(recorded: Map<string, number>, stopAfter: number): RunSink & { items: RunItem[] } {
    const items: RunItem[] = [];
    return {
      items,
      isDone: (uri) => recorded.has(uri),
      found: () => undefined,
      record: (item) => {
        items.push(item);
        recorded.set(item.contextUri, (recorded.get(item.contextUri) ?? 0) + 1);
        return Promise.resolve();
      },
      cancelled: () => items.length >= stopAfter,
    };
  }

  /** Every file of the bag with what tells a rewrite (a new file renamed in has a new inode). */
  function stamps(bag: string): Map<string, string> {
    const files = fs.readdirSync(bag, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    return new Map(
      files.map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const { ino, mtimeMs } = fs.statSync(file);
        return [path.relative(bag, file), `${ino}:${mtimeMs}`];
      }),
    );
  }

  it('skips what the stopped run recorded, writes each file once and finishes a valid bag', async () => {
    const title = (text: string) => [{ predicate: `${NS.dcterms}title`, object: literal(text) }];
    const col = await site.adapter.createChild(site.rootUri, title('Resumed'));
    for (let i = 0; i < 4; i++) {
      const box = await site.adapter.createChild(col, title(`Box ${i}`));
      await site.adapter.uploadBinary(box, {
        content: Readable.from([Buffer.from(`bytes of box ${i}`)]),
        filename: `file-${i}.txt`,
        contentType: 'text/plain',
      });
    }
    const view = await handle.db
      .insertInto('repository_views')
      .values({
        type: 'FEDORA',
        name: 'resume',
        root_uri: site.rootUri,
        username: null,
        password_encrypted: null,
        dialect: null,
        detected_dialect: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const job = await new CurationJobStore(handle.db).create({
      kind: 'EXPORT',
      format: 'BAGIT',
      repositoryViewId: view.id,
      contextUri: col,
      scope: 'SUBTREE',
      operators: [],
      dryRun: false,
      createdBy: 1,
      created: Date.now(),
    });
    const target: JobTarget = { adapter: site.adapter, schemas: [], rootUri: site.rootUri };
    const request = {
      kind: 'EXPORT' as const,
      contextUri: col,
      scope: 'SUBTREE' as const,
      operators: [],
      concurrency: 2,
      maxResources: 100,
    };
    const settings = { dataDir, organization: 'Test Archive', agent: 'Scriptorium test' };
    const ledger = { list: () => Promise.resolve([]) };
    const recorded = new Map<string, number>();

    const first = await new BagExports(new ExportFileStore(handle.db), ledger, settings).run(
      job.id,
      request,
      target,
      sink(recorded, 3),
    );
    expect(first).toEqual({ ended: 'CANCELLED' });
    const bag = path.join(dataDir, 'exports', String(job.id));
    const before = stamps(bag);
    // The stopped run left complete files only (at least the three resources it recorded) and no tag file.
    expect(before.size).toBeGreaterThanOrEqual(3);
    expect(
      [...before.keys()].every((file) => file.startsWith(`data${path.sep}`) || file.startsWith('data/')),
    ).toBe(true);

    const resumed = sink(recorded, Number.POSITIVE_INFINITY);
    const second = await new BagExports(new ExportFileStore(handle.db), ledger, settings).run(
      job.id,
      request,
      target,
      resumed,
    );
    expect(second).toMatchObject({ ended: 'COMPLETE' });
    // Nine resources (the collection, four boxes, four binaries), each recorded once over both runs.
    expect(recorded.size).toBe(9);
    expect([...recorded.values()].every((times) => times === 1)).toBe(true);
    // Not one file of the first run was written again.
    const after = stamps(bag);
    for (const [file, stamp] of before) expect(after.get(file), file).toBe(stamp);
    expect((await validateBag(bag)).problems).toEqual([]);
    expect(fs.readFileSync(path.join(bag, 'bag-info.txt'), 'utf8')).toContain(
      'Source-Organization: Test Archive\n',
    );
  });
});
