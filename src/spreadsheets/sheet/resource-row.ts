import type { Quad, Term } from '@rdfjs/types';
import type { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import { termKey } from '../../curation-jobs/work/metadata-document.js';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import type { RowChange, RowTerms, SheetColumn } from '../spreadsheet.js';
import { headerOf } from './sheet-header.js';

/*
 * A resource as a sheet row and back (DECISIONS.md §13). A column holds one predicate's values of one
 * language (or those without a language: plain and typed literals and IRIs). Blank-node objects are never
 * read or touched: a cell cannot name them.
 */

/** The language a term belongs under in a sheet: its tag in lower case, or null for IRIs and other literals. */
function languageOf(term: Term): string | null {
  return term.termType === 'Literal' && term.language !== '' ? term.language.toLowerCase() : null;
}

function isCellTerm(q: Quad, subject: string, naming: FieldNaming): boolean {
  return q.object.termType !== 'BlankNode' && naming.isMetadata(q, subject);
}

/**
 * The resource's metadata per column, keyed by the column's header text (`headerOf`), each list in the order
 * the repository served it and without repeats (by `termKey`: tags differing only in case are one value).
 */
export function rowTermsOf(subject: string, quads: readonly Quad[], naming: FieldNaming): RowTerms {
  const terms = new Map<string, Term[]>();
  const keys = new Map<string, Set<string>>();
  for (const q of quads) {
    if (!isCellTerm(q, subject, naming)) continue;
    const header = headerOf(q.predicate.value, languageOf(q.object), naming);
    const key = termKey(q.object);
    const seen = keys.get(header) ?? new Set<string>();
    if (seen.has(key)) continue;
    seen.add(key);
    keys.set(header, seen);
    const list = terms.get(header);
    if (list === undefined) terms.set(header, [q.object]);
    else list.push(q.object);
  }
  return terms;
}

/**
 * What a row asks of its resource: for each column, the predicate's current values of the column's language
 * that the cell no longer holds are removed and the cell's values not yet there are added (compared by
 * `termKey`, so an unchanged cell, whatever its order, is no change; an empty cell removes them all). Columns
 * the sheet lacks are untouched, and so are blank-node objects. `cells[i]` holds the decoded values of
 * `columns[i]`.
 */
export function rowChange(
  subject: string,
  columns: readonly SheetColumn[],
  cells: readonly (readonly Term[])[],
  quads: readonly Quad[],
  naming: FieldNaming,
): RowChange {
  if (cells.length !== columns.length) {
    throw new Error(`A row has ${cells.length} cells for ${columns.length} columns`);
  }
  const removed: Quad[] = [];
  const added: Quad[] = [];
  for (const [i, column] of columns.entries()) {
    const current = quads.filter(
      (q) =>
        q.predicate.value === column.predicate &&
        isCellTerm(q, subject, naming) &&
        languageOf(q.object) === column.language,
    );
    const wanted = new Map<string, Term>();
    for (const term of cells[i] ?? []) if (!wanted.has(termKey(term))) wanted.set(termKey(term), term);
    const present = new Set<string>();
    for (const q of current) {
      const key = termKey(q.object);
      present.add(key);
      if (!wanted.has(key)) removed.push(q);
    }
    for (const [key, term] of wanted) {
      if (!present.has(key)) {
        added.push(quad(namedNode(subject), namedNode(column.predicate), term as Quad['object']));
      }
    }
  }
  return { removed, added };
}
