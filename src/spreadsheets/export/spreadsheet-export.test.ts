import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobTarget } from '../../curation-jobs/work/job-work.js';
import { literal, namedNode } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { UpstreamFailedError, ValidationFailedError } from '../../shared/errors.js';
import {
  counting,
  DC_SCHEMA,
  startEmbeddedRepository,
  TITLE,
} from '../../../test/support/curation-jobs/work.js';
import { eventually } from '../../../test/support/search-feed.js';
import type { TestApp } from '../../../test/support/test-app.js';
import type { ExportRequest } from './export-request.js';
import { SPOOL_PREFIX } from './row-spool.js';
import { exportFilename, spoolExport, type ExportOptions } from './spreadsheet-export.js';

/** The spool and its failures, against the embedded repository through a real FEDORA adapter. */
let t: TestApp;
let adapter: RepositoryAdapter;
let container: string;
const children: string[] = [];
let spoolDir: string | undefined;

beforeAll(async () => {
  const started = await startEmbeddedRepository();
  t = started.t;
  adapter = started.adapter;
  container = await adapter.createChild(started.rootUri, [
    { predicate: TITLE, object: literal('Box', 'en') },
  ]);
  for (const title of ['one\u2028two', '=1+1', 'three']) {
    children.push(
      await adapter.createChild(container, [
        { predicate: TITLE, object: literal(title, 'en') },
        { predicate: `${NS.dc}relation`, object: namedNode('http://id.example/x') },
      ]),
    );
  }
}, 30_000);
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  if (spoolDir !== undefined) fs.rmSync(spoolDir, { recursive: true, force: true });
});

function fresh(): ExportOptions {
  spoolDir = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-test-'));
  return { concurrency: 2, maxResources: 100, spoolDir };
}
const spoolFiles = () => fs.readdirSync(spoolDir ?? '.').filter((name) => name.startsWith(SPOOL_PREFIX));
const request = (scope: ExportRequest['scope']): ExportRequest => ({
  contextUri: container,
  scope,
  query: null,
  bom: false,
});
const target = (over: Partial<JobTarget> = {}): JobTarget => ({
  adapter,
  schemas: [DC_SCHEMA],
  rootUri: container,
  ...over,
});

describe('spoolExport', () => {
  it('spools the rows to one file, then writes them as CSV and removes the file', async () => {
    const spooled = await spoolExport(target(), request('SUBTREE'), fresh());
    expect(spooled.rows).toBe(4);
    expect(spooled.header).toEqual(['contextUri', 'etag', 'dc:relation', 'dc:title[en]']);
    expect(spoolFiles()).toHaveLength(1);
    const records = parse(await buffer(spooled.csv()));
    expect(records[0]).toEqual(spooled.header);
    const titles = records.slice(1).map((record) => record[3]);
    // A line separator inside a value survives the spool's lines; a formula is guarded.
    expect(titles).toEqual(expect.arrayContaining(['one\u2028two', "'=1+1", 'three', 'Box']));
    expect(records.slice(1).every((record) => record[1] !== '')).toBe(true);
    expect(await eventually(() => Promise.resolve(spoolFiles().length === 0))).toBe(true);
  });

  it('fails naming a resource that cannot be read, with the spool removed', async () => {
    const wrapped = counting(adapter).adapter;
    const failing: RepositoryAdapter = {
      ...wrapped,
      describe: (uri, ...rest) =>
        uri === children[1] ? Promise.reject(new Error('connection reset')) : wrapped.describe(uri, ...rest),
    };
    const attempt = spoolExport(target({ adapter: failing }), request('CHILDREN'), fresh());
    await expect(attempt).rejects.toThrow(UpstreamFailedError);
    await expect(attempt).rejects.toThrow(`The resource ${children[1]} could not be read (connection reset)`);
    expect(spoolFiles()).toEqual([]);
  });

  it('refuses a scope over the limit as INVALID on scope, with the spool removed', async () => {
    const attempt = spoolExport(target(), request('SUBTREE'), { ...fresh(), maxResources: 3 });
    await expect(attempt).rejects.toThrow(ValidationFailedError);
    await expect(attempt).rejects.toThrow(/holds more than 3 resources, the most one export may hold/u);
    expect(spoolFiles()).toEqual([]);
  });

  it('stops when the client went away, with the spool removed', async () => {
    const gone = new AbortController();
    gone.abort();
    await expect(
      spoolExport(target(), request('CHILDREN'), { ...fresh(), signal: gone.signal }),
    ).rejects.toThrow(/abandoned/u);
    expect(spoolFiles()).toEqual([]);
  });

  it('removes the spool when the CSV is abandoned half-read, and says so', async () => {
    const errors: Error[] = [];
    const spooled = await spoolExport(target(), request('SUBTREE'), {
      ...fresh(),
      onWriteError: (error) => errors.push(error),
    });
    const csv = spooled.csv();
    await new Promise((resolve) => csv.once('readable', resolve));
    csv.destroy();
    expect(await eventually(() => Promise.resolve(spoolFiles().length === 0))).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('can be discarded unwritten', async () => {
    const spooled = await spoolExport(target(), request('CHILDREN'), fresh());
    expect(spoolFiles()).toHaveLength(1);
    await spooled.discard();
    expect(spoolFiles()).toEqual([]);
  });
});

describe('exportFilename', () => {
  it("keeps the view's name to safe characters", () => {
    expect(exportFilename('Letters & Co', 'SUBTREE')).toBe('Letters-Co-SUBTREE.csv');
    expect(exportFilename('Ἐπιστολαί/../x', 'QUERY')).toBe('Ἐπιστολαί-..-x-QUERY.csv');
    expect(exportFilename('***', 'MEMBERS')).toBe('export-MEMBERS.csv');
  });
});
