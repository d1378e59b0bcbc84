import { afterAll, beforeAll, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../../src/linked-data/rdf/terms.js';
import {
  act,
  allChanges,
  createdJob,
  exportedCsv,
  importSheet,
  jobIn,
  readCsv,
  writeCsv,
  type SheetChange,
  type SheetJob,
} from './sheet-api.js';
import {
  childrenOf,
  DCT,
  expectedMetadata,
  readBack,
  seedCollection,
  sortedTriples,
  type ModelResource,
  type Statement,
} from './sheet-corpus.js';
import { editSheet, expectedChanges, type SheetEdit } from './sheet-edits.js';
import type { SheetSite } from './sheet-site.js';

/**
 * Issue 29's "Done when", through the API, as one curator's session on a site (the embedded repository,
 * a Community Solid Server): the same steps on each, what differs is whether the view transacts (§9: a
 * FEDORA apply is all or nothing; an LDP apply writes with If-Match and says what it wrote).
 */
export interface DoneWhenOptions {
  readonly site: () => Promise<SheetSite>;
  /** FEDORA: apply in one transaction. */
  readonly transacts: boolean;
  /** 10 boxes of 19 items: 200 resources below the collection. */
  readonly boxes?: number;
  readonly perBox?: number;
  /**
   * Columns of values the repository writes on every resource itself, in a namespace of the view's schemas
   * (Community Solid Server: dcterms:modified), which FieldNaming counts as metadata.
   */
  readonly repositoryColumns?: readonly string[];
}

const EXPECTED_COLUMNS = [
  'dcterms:creator',
  'dcterms:date',
  'dcterms:extent',
  'dcterms:subject',
  'dcterms:title[en]',
  'dcterms:title[fr]',
];

const HAND_EDIT = { predicate: DCT.description, object: literal('Edited by hand after the export') };

export function doneWhen(options: DoneWhenOptions): void {
  let site: SheetSite;
  let model: ModelResource[];
  let collection: string;
  let children: string[];
  let edit: SheetEdit;
  let job: SheetJob;
  let conflicted: ModelResource;
  const token = () => site.curator.token;
  /** What each resource holds when the sheet was not (or no longer is) applied. */
  const original = (resource: ModelResource): Statement[] =>
    resource === conflicted ? [...resource.statements, HAND_EDIT] : resource.statements;

  const expectRepositoryHolds = async (holds: (resource: ModelResource) => Statement[]) => {
    const read = await readBack(
      site.t,
      site.prefix,
      model.map((r) => r.uri),
      token(),
    );
    const wrong = model.filter(
      (resource) =>
        JSON.stringify(read.get(resource.uri)) !==
        JSON.stringify(expectedMetadata({ uri: resource.uri, statements: holds(resource) })),
    );
    expect(
      wrong.map((r) => ({
        uri: r.uri,
        has: read.get(r.uri),
        wants: expectedMetadata({ ...r, statements: holds(r) }),
      })),
    ).toEqual([]);
  };

  beforeAll(async () => {
    site = await options.site();
    model = await seedCollection(site.adapter, site.rootUri, options.boxes ?? 10, options.perBox ?? 19);
    collection = model[0]!.uri;
    children = await childrenOf(site.t, site.prefix, collection, token());
    conflicted = model.filter((r) => r.role === 'item')[3]!;
  }, 120_000);
  afterAll(async () => {
    await site.t.close();
  });

  it('exports every resource of the subtree once, with the columns of §13', async () => {
    const records = readCsv(
      await exportedCsv(site.t, site.prefix, { contextUri: collection, scope: 'SUBTREE' }, token()),
    );
    const [header, ...rows] = records;
    expect(model.length).toBe(1 + (options.boxes ?? 10) * (1 + (options.perBox ?? 19)));
    expect(header!.slice(0, 2)).toEqual(['contextUri', 'etag']);
    const metadataColumns = header!.slice(2);
    expect(metadataColumns).toEqual([...metadataColumns].sort());
    expect(metadataColumns).toEqual([...EXPECTED_COLUMNS, ...(options.repositoryColumns ?? [])].sort());
    expect(rows.map((row) => row[0]).sort()).toEqual(model.map((r) => r.uri).sort());
    expect(rows.every((row) => row[1] !== '')).toBe(true);
  });

  it('previews exactly the edit: 20 cells changed, 5 cleared, a new column, 3 new rows; a row edited since fails', async () => {
    const exported = readCsv(
      await exportedCsv(site.t, site.prefix, { contextUri: collection, scope: 'SUBTREE' }, token()),
    );
    edit = editSheet(exported, model);
    expect(edit.counts).toEqual({ changed: 20, cleared: 5, newColumnCells: 8 });
    expect(edit.after.has(conflicted.uri)).toBe(true);
    // Someone edits one of the rows' resources in the repository after the export.
    await site.adapter.updateTriples(
      conflicted.uri,
      [],
      [quad(namedNode(conflicted.uri), namedNode(HAND_EDIT.predicate), HAND_EDIT.object)],
    );

    job = createdJob(
      await importSheet(
        site.t,
        { repositoryViewId: site.viewId, contextUri: collection },
        writeCsv(edit.records),
        token(),
      ),
    );
    expect(job).toMatchObject({
      kind: 'SPREADSHEET',
      scope: 'SUBTREE',
      dryRun: true,
      spreadsheet: { rows: model.length + 3, columns: edit.records[0]!.slice(2) },
    });
    job = await jobIn(site.t, job.id, ['PREVIEWED'], token());
    const changes = await allChanges(site.t, job.id, token());

    const expected = expectedChanges(edit, model, new Set([conflicted.uri]));
    const shown = (change: SheetChange) => ({
      row: change.row,
      removed: sortedTriples(change.removed),
      added: sortedTriples(change.added),
      error: change.error,
    });
    const existing = changes.filter((c) => !c.contextUri.startsWith('+') && c.contextUri !== conflicted.uri);
    expect(Object.fromEntries(existing.map((c) => [c.contextUri, shown(c)]))).toEqual(
      Object.fromEntries([...expected].map(([uri, change]) => [uri, { ...change, error: null }])),
    );
    // The row edited since the export: failed, naming its row and resource, with nothing to write.
    const failed = changes.filter((c) => c.contextUri === conflicted.uri);
    expect(failed).toHaveLength(1);
    const conflictRow = edit.rowOf.get(conflicted.uri)!;
    expect(failed[0]).toMatchObject({ row: conflictRow, removed: [], added: [] });
    expect(failed[0]!.error).toMatch(new RegExp(`^Row ${conflictRow}: `));
    expect(failed[0]!.error).toContain(conflicted.uri);
    // The new rows: by row, each adding its values, removing nothing.
    const created = changes.filter((c) => c.contextUri.startsWith('+'));
    const valuesOf = (triples: readonly { predicate: string; object: string }[]) =>
      triples.map((t) => `${t.predicate} ${t.object}`).sort();
    expect(
      created.map((c) => ({ row: c.row, removed: c.removed, error: c.error, added: valuesOf(c.added) })),
    ).toEqual(
      edit.newRows.map((n) => ({
        row: n.row,
        removed: [],
        error: null,
        added: valuesOf(expectedMetadata({ uri: '+', statements: n.statements })),
      })),
    );
    expect(changes).toHaveLength(expected.size + 1 + 3);
    expect(job.progress).toEqual({
      total: model.length + 3,
      done: model.length + 3,
      changed: expected.size + 3,
      failed: 1,
    });
    // A preview writes nothing.
    await expectRepositoryHolds(original);
    expect(await childrenOf(site.t, site.prefix, collection, token())).toEqual(children);
  });

  it('apply writes exactly the preview: the edited rows, the 3 new resources; the conflicting row stays as it was', async () => {
    job = await act(site.t, job.id, 'apply', ['APPLIED'], token());
    await expectRepositoryHolds((resource) =>
      resource === conflicted ? original(resource) : (edit.after.get(resource.uri) ?? resource.statements),
    );
    const created = (await allChanges(site.t, job.id, token())).filter((c) =>
      edit.newRows.some((n) => n.row === c.row),
    );
    expect(created).toHaveLength(3);
    const createdUris = created.map((c) => c.contextUri);
    expect(createdUris.every((uri) => uri.startsWith(collection))).toBe(true);
    const read = await readBack(site.t, site.prefix, createdUris, token());
    for (const change of created) {
      const row = edit.newRows.find((n) => n.row === change.row)!;
      expect(read.get(change.contextUri)).toEqual(
        expectedMetadata({ uri: change.contextUri, statements: row.statements }),
      );
    }
    expect(await childrenOf(site.t, site.prefix, collection, token())).toEqual(
      [...children, ...createdUris].sort(),
    );
  });

  it('undo restores everything: every value back, the 3 new resources gone, the edit made by hand kept', async () => {
    const created = (await allChanges(site.t, job.id, token()))
      .filter((c) => edit.newRows.some((n) => n.row === c.row))
      .map((c) => c.contextUri);
    job = await act(site.t, job.id, 'undo', ['UNDONE'], token());
    await expectRepositoryHolds(original);
    expect(await childrenOf(site.t, site.prefix, collection, token())).toEqual(children);
    const gone = await readBack(site.t, site.prefix, created, token());
    expect([...gone.values()]).toEqual([null, null, null]);
  });

  it(
    options.transacts
      ? 'a resource edited between preview and apply fails the whole apply; nothing is written'
      : 'a resource edited between preview and apply fails as a conflict; the job says what it wrote',
    async () => {
      const records = readCsv(
        await exportedCsv(site.t, site.prefix, { contextUri: collection, scope: 'SUBTREE' }, token()),
      );
      const titleAt = records[0]!.indexOf('dcterms:title[en]');
      const items = model.filter((r) => r.role === 'item').slice(60, 63);
      for (const record of records.slice(1))
        if (items.some((item) => item.uri === record[0])) record[titleAt] = `${record[titleAt]} (checked)`;
      const second = createdJob(
        await importSheet(
          site.t,
          { repositoryViewId: site.viewId, contextUri: collection },
          writeCsv(records),
          token(),
        ),
      );
      expect((await jobIn(site.t, second.id, ['PREVIEWED'], token())).progress.changed).toBe(3);
      const [edited] = items;
      await site.adapter.updateTriples(
        edited!.uri,
        [],
        [quad(namedNode(edited!.uri), namedNode(HAND_EDIT.predicate), HAND_EDIT.object)],
      );
      const failed = await act(site.t, second.id, 'apply', ['FAILED'], token());
      expect(failed.message).toContain(edited!.uri);
      const read = await readBack(
        site.t,
        site.prefix,
        items.map((i) => i.uri),
        token(),
      );
      expect(read.get(edited!.uri)).toEqual(
        expectedMetadata({ uri: edited!.uri, statements: [...edited!.statements, HAND_EDIT] }),
      );
      const checked = (item: ModelResource) =>
        item.statements.map((s) =>
          s.predicate === DCT.title && s.object.termType === 'Literal' && s.object.language === 'en'
            ? { predicate: s.predicate, object: literal(`${s.object.value} (checked)`, 'en') }
            : s,
        );
      for (const item of items.slice(1)) {
        const written = failed.message?.includes(item.uri) === true;
        // FEDORA rolled everything back; LDP wrote exactly the resources its message lists.
        expect(options.transacts && written).toBe(false);
        expect(read.get(item.uri)).toEqual(
          expectedMetadata({ uri: item.uri, statements: written ? checked(item) : item.statements }),
        );
      }
    },
  );
}
