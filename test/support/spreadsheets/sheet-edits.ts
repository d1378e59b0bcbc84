import { literal, namedNode } from '../../../src/linked-data/rdf/terms.js';
import { DCT, difference, XSD_DATE, type ModelResource, type Statement } from './sheet-corpus.js';
import type { WireTriple } from './sheet-api.js';

/**
 * Issue 29's "Done when" edit, made to an exported sheet the way a curator makes it in a spreadsheet
 * program, and the same edit made to the model: 20 cells changed, 5 cleared, a column added that no
 * resource has, 3 `+` rows. The cells are written in the grammar of DECISIONS.md §13 by hand here; what
 * each edit means is written as statements, so the expected preview is computed from the model alone.
 */
export const NEW_COLUMN = 'dcterms:coverage';

export interface NewRow {
  /** The row number in the uploaded sheet (header = row 1). */
  readonly row: number;
  readonly statements: Statement[];
}

export interface SheetEdit {
  /** The sheet to upload, header first. */
  readonly records: string[][];
  /** Resource → its statements once the sheet is applied (only the resources the sheet changes). */
  readonly after: Map<string, Statement[]>;
  /** The row number of each existing resource's row. */
  readonly rowOf: Map<string, number>;
  readonly newRows: readonly NewRow[];
  /** How many cells of each kind were edited (the test checks the plan is the issue's). */
  readonly counts: { changed: number; cleared: number; newColumnCells: number };
}

const valuesOf = (statements: readonly Statement[], predicate: string, language: string | null) =>
  statements.filter(
    (s) =>
      s.predicate === predicate &&
      (language === null
        ? s.object.termType !== 'Literal' || s.object.language === ''
        : s.object.termType === 'Literal' && s.object.language === language),
  );

/** Replaces the values of one column (predicate and language) of a statement list. */
function replaced(
  statements: readonly Statement[],
  predicate: string,
  language: string | null,
  values: readonly Statement['object'][],
): Statement[] {
  const old = new Set(valuesOf(statements, predicate, language));
  return [...statements.filter((s) => !old.has(s)), ...values.map((object) => ({ predicate, object }))];
}

/** Plans and makes the edit on the exported `records` (header first) for the seeded `model`. */
export function editSheet(
  records: readonly (readonly string[])[],
  model: readonly ModelResource[],
): SheetEdit {
  const header = [...records[0]!];
  const rows = records.slice(1).map((record) => [...record]);
  const at = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`the export has no column ${name}: ${header.join(', ')}`);
    return index;
  };
  const contextAt = at('contextUri');
  const rowOf = new Map(rows.map((record, k) => [record[contextAt]!, k + 2]));
  const recordOf = (uri: string) => rows[rowOf.get(uri)! - 2]!;
  const after = new Map<string, Statement[]>();
  const current = (resource: ModelResource) => after.get(resource.uri) ?? resource.statements;
  const edit = (
    resource: ModelResource,
    column: string,
    cell: string,
    predicate: string,
    language: string | null,
    values: Statement['object'][],
  ) => {
    recordOf(resource.uri)[at(column)] = cell;
    after.set(resource.uri, replaced(current(resource), predicate, language, values));
  };
  const items = model.filter((resource) => resource.role === 'item');
  const having = (predicate: string, language: string | null) =>
    items.filter((item) => valuesOf(item.statements, predicate, language).length > 0);
  const counts = { changed: 0, cleared: 0, newColumnCells: 0 };

  // 20 cells changed: 10 English titles, 5 dates (to a typed date), 5 subject cells (to two values, one
  // with a comma and quotes, one in Greek).
  for (const item of items.slice(0, 10)) {
    const title = `Record ${item.index} (revised)`;
    edit(item, 'dcterms:title[en]', title, DCT.title, 'en', [literal(title, 'en')]);
    counts.changed += 1;
  }
  for (const item of having(DCT.date, null).slice(10, 15)) {
    edit(item, 'dcterms:date', '"2001-02-03"^^xsd:date', DCT.date, null, [
      literal('2001-02-03', namedNode(XSD_DATE)),
    ]);
    counts.changed += 1;
  }
  for (const item of having(DCT.subject, null).slice(15, 20)) {
    edit(item, 'dcterms:subject', 'Trade, "river" and mills||Ιστορία', DCT.subject, null, [
      literal('Trade, "river" and mills'),
      literal('Ιστορία'),
    ]);
    counts.changed += 1;
  }
  // 5 cleared: creators (IRIs) removed.
  for (const item of having(DCT.creator, null).slice(20, 25)) {
    edit(item, 'dcterms:creator', '', DCT.creator, null, []);
    counts.cleared += 1;
  }
  // A column none of them has, filled on eight rows (two of them edited above too), empty elsewhere.
  header.push(NEW_COLUMN);
  for (const record of rows) record.push('');
  for (const item of [items[5]!, items[12]!, ...items.slice(40, 46)]) {
    edit(item, NEW_COLUMN, '<http://sws.geonames.org/4736286/>||Texas', DCT.coverage, null, [
      namedNode('http://sws.geonames.org/4736286/'),
      literal('Texas'),
    ]);
    counts.newColumnCells += 1;
  }
  // 3 new rows: a `+` in contextUri, an empty etag, a title and (for one) a date and the new column.
  const newRows: NewRow[] = [];
  for (let k = 1; k <= 3; k++) {
    const record = header.map(() => '');
    record[contextAt] = '+';
    record[at('dcterms:title[en]')] = `New record ${k}`;
    const statements: Statement[] = [{ predicate: DCT.title, object: literal(`New record ${k}`, 'en') }];
    if (k === 2) {
      record[at('dcterms:date')] = '"2024-05-06"^^xsd:date';
      record[at(NEW_COLUMN)] = 'Texas';
      statements.push(
        { predicate: DCT.date, object: literal('2024-05-06', namedNode(XSD_DATE)) },
        { predicate: DCT.coverage, object: literal('Texas') },
      );
    }
    rows.push(record);
    newRows.push({ row: rows.length + 1, statements });
  }
  return { records: [header, ...rows], after, rowOf, newRows, counts };
}

/** The change the preview must show for each edited resource (all but `except`), by IRI. */
export function expectedChanges(
  edit: SheetEdit,
  model: readonly ModelResource[],
  except: ReadonlySet<string> = new Set(),
): Map<string, { row: number; removed: WireTriple[]; added: WireTriple[] }> {
  const expected = new Map<string, { row: number; removed: WireTriple[]; added: WireTriple[] }>();
  for (const resource of model) {
    const statements = edit.after.get(resource.uri);
    if (statements === undefined || except.has(resource.uri)) continue;
    const change = difference(resource.uri, resource.statements, statements);
    if (change.removed.length + change.added.length === 0) continue;
    expected.set(resource.uri, { row: edit.rowOf.get(resource.uri)!, ...change });
  }
  return expected;
}
