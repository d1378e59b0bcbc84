import { describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import { toWireTriple } from '../../repository-view-context/triple-format.js';
import type { JobTarget, RunItem, RunRequest } from '../../curation-jobs/work/job-work.js';
import { runScope } from '../../curation-jobs/work/run-scope.js';
import { DC_SCHEMA, memorySink, TITLE } from '../../../test/support/curation-jobs/work.js';
import { fakeRepository, stagedRows } from '../../../test/support/spreadsheets/fake-repository.js';
import type { SheetColumn, SheetRow } from '../spreadsheet.js';
import { runSheet } from './run-sheet.js';

const ROOT = 'http://repo.test/rest/';
const CREATOR = `${NS.dc}creator`;
const COLUMNS: readonly SheetColumn[] = [
  { header: 'dc:title[en]', predicate: TITLE, language: 'en' },
  { header: 'dc:creator', predicate: CREATOR, language: null },
];
const A = `${ROOT}a`;
const B = `${ROOT}b`;

function row(n: number, contextUri: string, cells: readonly string[], etag: string | null = null): SheetRow {
  return { row: n, contextUri, etag, cells };
}

function request(rows: readonly SheetRow[], overrides: Partial<RunRequest> = {}): RunRequest {
  return {
    kind: 'SPREADSHEET',
    contextUri: `${ROOT}col`,
    scope: 'SUBTREE',
    operators: [],
    sheet: { columns: COLUMNS, rows: stagedRows(rows) },
    concurrency: 4,
    // The sheet's rows were limited at upload: a run never applies the MAPPING scope limit.
    maxResources: 1,
    ...overrides,
  };
}

/** A repository holding A (title "Letters"@en, creator "Ada", ETag "1") and B (title "Maps"@en, ETag W/"7"). */
function repository(options: Parameters<typeof fakeRepository>[0] = {}) {
  const repo = fakeRepository(options);
  repo.put(
    A,
    [
      quad(namedNode(A), namedNode(TITLE), literal('Letters', 'en')),
      quad(namedNode(A), namedNode(CREATOR), literal('Ada')),
    ],
    '"1"',
  );
  repo.put(B, [quad(namedNode(B), namedNode(TITLE), literal('Maps', 'en'))], 'W/"7"');
  const target: JobTarget = { adapter: repo.adapter, schemas: [DC_SCHEMA], rootUri: ROOT };
  return { ...repo, target };
}

const shown = (item: RunItem | undefined) => {
  if (item?.kind !== 'MAPPING') throw new Error('not a MAPPING item');
  return { ...item, removed: item.removed.map(toWireTriple), added: item.added.map(toWireTriple) };
};

describe('runSheet', () => {
  it('a row that edits: the change against the resource as it is, with the ETag read and the row', async () => {
    const { target } = repository();
    const { sink, items, found } = memorySink();
    const rows = [row(2, A, ['Letters', 'Ada||Grace'], '"1"'), row(3, B, ['Maps', ''], 'W/"7"')];
    expect(await runScope(request(rows), target, sink)).toEqual({ ended: 'COMPLETE' });
    expect(found()).toBe(2);
    const byRow = new Map(items.map((item) => [item.kind === 'MAPPING' ? item.row : 0, shown(item)]));
    expect(byRow.get(2)).toEqual({
      kind: 'MAPPING',
      contextUri: A,
      etag: '"1"',
      removed: [],
      added: [{ subject: A, predicate: CREATOR, object: '"Grace"' }],
      error: null,
      warnings: [],
      row: 2,
    });
    // An unchanged row is an item without triples (UNCHANGED), so a resumed run skips it too.
    expect(byRow.get(3)).toMatchObject({ contextUri: B, etag: 'W/"7"', removed: [], added: [], error: null });
  });

  it('an empty cell removes the values of its column; a column the sheet lacks is untouched', async () => {
    const { target } = repository();
    const { sink, items } = memorySink();
    const onlyTitle = {
      ...request([row(2, A, [''])]),
      sheet: { columns: [COLUMNS[0]!], rows: stagedRows([row(2, A, [''])]) },
    };
    await runSheet(onlyTitle, target, sink);
    expect(shown(items[0])).toMatchObject({
      removed: [{ subject: A, predicate: TITLE, object: '"Letters"@en' }],
      added: [],
      error: null,
    });
  });

  it('a + row: a creation in the job’s context, keyed +N, its values as triples of the key; none reads the repository', async () => {
    const { target, counts } = repository();
    const { sink, items } = memorySink();
    await runSheet(request([row(4, '+', ['New', '<http://example.org/ada>'])]), target, sink);
    expect(shown(items[0])).toEqual({
      kind: 'MAPPING',
      contextUri: '+4',
      etag: null,
      removed: [],
      added: [
        { subject: '+4', predicate: TITLE, object: '"New"@en' },
        { subject: '+4', predicate: CREATOR, object: 'http://example.org/ada' },
      ],
      error: null,
      warnings: [],
      row: 4,
      create: { parentUri: `${ROOT}col` },
    });
    expect(counts.described).toEqual([]);
  });

  it('rows that fail name the row and the resource: no values, unknown, outside the view, changed since, unreadable', async () => {
    const broken = `${ROOT}broken`;
    const { target, counts } = repository({ broken: [broken] });
    const { sink, items } = memorySink();
    const rows = [
      row(2, '+', ['', '']),
      row(3, `${ROOT}gone`, ['x', '']),
      row(4, 'http://elsewhere.test/rest/a', ['x', '']),
      row(5, A, ['Letters', 'Ada'], '"0"'),
      row(6, broken, ['x', '']),
    ];
    expect(await runSheet(request(rows), target, sink)).toEqual({ ended: 'COMPLETE' });
    const errors = new Map(items.map((item) => [item.contextUri, item.error]));
    expect(Object.fromEntries(errors)).toEqual({
      '+2': 'Row 2: a new resource needs at least one value',
      [`${ROOT}gone`]: `Row 3: ${ROOT}gone is not in the repository`,
      'http://elsewhere.test/rest/a': 'Row 4: http://elsewhere.test/rest/a is not in this repository view',
      [A]: `Row 5: ${A} changed since the sheet was exported (ETag "0", now "1")`,
      [broken]: `Row 6: ${broken} could not be read: GET ${broken} answered 500 Internal Server Error`,
    });
    expect(
      items.every((item) => item.kind === 'MAPPING' && item.removed.length + item.added.length === 0),
    ).toBe(true);
    // The row outside the view is refused without a request.
    expect(counts.described).not.toContain('http://elsewhere.test/rest/a');
    // The failed edit keeps the ETag it was compared with.
    expect(items.find((item) => item.contextUri === A)).toMatchObject({ etag: '"1"', row: 5 });
  });

  it('ETags compare without their weakness mark (a repository may weaken a tag it served strong)', async () => {
    const { target } = repository();
    const { sink, items } = memorySink();
    await runSheet(
      request([row(2, A, ['Letters', 'Ada'], 'W/"1"'), row(3, B, ['Maps', ''], '"7"')]),
      target,
      sink,
    );
    expect(items.map((item) => item.error)).toEqual([null, null]);
  });

  it('a resumed run skips the rows already recorded, which still count as found', async () => {
    const { target, counts } = repository();
    const { sink, items, found } = memorySink({ done: [A, '+3'] });
    const rows = [row(2, A, ['x', '']), row(3, '+', ['New', '']), row(4, B, ['Charts', ''])];
    expect(await runSheet(request(rows), target, sink)).toEqual({ ended: 'COMPLETE' });
    expect(found()).toBe(3);
    expect(items.map((item) => item.contextUri)).toEqual([B]);
    expect(counts.described).toEqual([B]);
  });

  it('reads at most `concurrency` resources at once, and records every row once, in row order', async () => {
    // Reads end out of order: some are slow.
    const { target, counts, put } = repository({
      delayMs: (uri) => (uri.endsWith('0') || uri.endsWith('3') ? 15 : 2),
    });
    const uris = Array.from({ length: 20 }, (_, i) => `${ROOT}r${i}`);
    for (const uri of uris) put(uri, [], '"1"');
    const { sink, items } = memorySink();
    const rows = uris.map((uri, i) => row(i + 2, uri, ['t', '']));
    await runSheet(request(rows, { concurrency: 3 }), target, sink);
    expect(counts.maxInFlight).toBe(3);
    expect(items.map((item) => item.contextUri)).toEqual(uris);
  });

  it('stops at a cancel: the rows in flight are recorded, no more are read', async () => {
    const { target, counts, put } = repository({ delayMs: 1 });
    const uris = Array.from({ length: 10 }, (_, i) => `${ROOT}c${i}`);
    for (const uri of uris) put(uri, [], '"1"');
    const { sink, items } = memorySink({ cancelled: () => items.length >= 2 });
    const rows = uris.map((uri, i) => row(i + 2, uri, ['t', '']));
    expect(await runSheet(request(rows, { concurrency: 1 }), target, sink)).toEqual({ ended: 'CANCELLED' });
    expect(items).toHaveLength(2);
    expect(counts.described).toHaveLength(2);
  });

  it('a run given no sheet fails, saying so', async () => {
    const { target } = repository();
    const withoutSheet: RunRequest = { ...request([]), sheet: undefined };
    expect(await runSheet(withoutSheet, target, memorySink().sink)).toEqual({
      ended: 'FAILED',
      message: 'The job’s spreadsheet was not given to its run; nothing was written',
    });
  });
});
