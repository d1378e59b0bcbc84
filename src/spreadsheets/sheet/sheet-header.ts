import { isValidIri } from '../../linked-data/rdf/terms.js';
import { STRUCTURAL } from '../../repository-view-context/context-builder.js';
import type { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import {
  CONTEXT_URI_COLUMN,
  ETAG_COLUMN,
  SpreadsheetInvalidError,
  type SheetColumn,
  type SheetHeader,
} from '../spreadsheet.js';
import { unguardFormula } from './cell-codec.js';

/*
 * A sheet's first row (DECISIONS.md §13): `contextUri` (required, anywhere), `etag` (optional), and metadata
 * columns `abbr:local`, `abbr:local[lang]`, `<iri>`, `<iri>[lang]` naming metadata predicates of the view.
 */

/** `dcterms:title[en]` → name and tag; a header without a trailing `[…]` has no language. */
const WITH_LANGUAGE = /^(.*)\[([^[\]]*)\]$/su;
/** BCP 47 in its general shape: a primary subtag of letters, then subtags of letters and digits. */
const LANGUAGE_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/iu;
const PREFIXED = /^([A-Za-z][\w.-]*):(.+)$/su;

/** A column's letter as spreadsheet programs show it: 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(at: number): string {
  let letters = '';
  for (let n = at + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/**
 * The header row checked against the view. Each cell is trimmed and loses one formula-guard `'` (and the
 * first a byte-order mark). Throws SpreadsheetInvalidError (row 1, the column's letter) for an empty header, a
 * header that repeats another (the same predicate and language, however written), an unknown prefix, a bad
 * IRI or language tag, or a predicate that is not metadata of the view (server-managed or outside its schemas);
 * and for a sheet without a `contextUri` column.
 */
export function parseHeader(cells: readonly string[], naming: FieldNaming): SheetHeader {
  let contextUriAt: number | null = null;
  let etagAt: number | null = null;
  const columns: (SheetColumn & { at: number })[] = [];
  const seen = new Map<string, { at: number; text: string }>();
  for (const [at, cell] of cells.entries()) {
    const text = unguardFormula((at === 0 ? cell.replace(/^\uFEFF/u, '') : cell).trim()).trim();
    const invalid = (problem: string) => new SpreadsheetInvalidError(problem, 1, columnLetter(at));
    let key: string;
    if (text === '') {
      throw invalid(
        'The header is empty; every column needs one (contextUri, etag, or a metadata property such as dcterms:title).',
      );
    } else if (text.toLowerCase() === CONTEXT_URI_COLUMN.toLowerCase()) {
      key = CONTEXT_URI_COLUMN;
      contextUriAt = at;
    } else if (text.toLowerCase() === ETAG_COLUMN.toLowerCase()) {
      key = ETAG_COLUMN;
      etagAt = at;
    } else {
      const column = metadataColumn(text, naming, invalid);
      key = `${column.predicate}\n${column.language ?? ''}`;
      columns.push({ ...column, at });
    }
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      const same = earlier.text === text ? '' : ` (as ${earlier.text})`;
      throw invalid(
        `The header ${text} repeats column ${columnLetter(earlier.at)}${same}; each column may appear once.`,
      );
    }
    seen.set(key, { at, text });
  }
  if (contextUriAt === null) {
    throw new SpreadsheetInvalidError(
      'The sheet has no contextUri column; its header row must name one, holding the IRI of each row’s resource (or + for a new one).',
      1,
    );
  }
  return { contextUriAt, etagAt, columns };
}

function metadataColumn(
  text: string,
  naming: FieldNaming,
  invalid: (problem: string) => SpreadsheetInvalidError,
): SheetColumn {
  const tagged = WITH_LANGUAGE.exec(text);
  const name = (tagged === null ? text : (tagged[1] ?? '')).trim();
  let language: string | null = null;
  if (tagged !== null) {
    const tag = (tagged[2] ?? '').trim();
    if (!LANGUAGE_TAG.test(tag)) {
      throw invalid(
        `The header ${text} has [${tag}], which is not a language tag (such as en, de or pt-br).`,
      );
    }
    language = tag.toLowerCase();
  }
  const predicate = predicateNamed(name, text, naming, invalid);
  if (STRUCTURAL.has(predicate)) {
    throw invalid(`The header ${text} names ${predicate}, which the server manages; it cannot be imported.`);
  }
  if (!naming.isMetadataPredicate(predicate)) {
    throw invalid(
      `The header ${text} names ${predicate}, which is not metadata of this view: its namespace belongs to none of the view's schemas.`,
    );
  }
  return { header: text, predicate, language };
}

function predicateNamed(
  name: string,
  text: string,
  naming: FieldNaming,
  invalid: (problem: string) => SpreadsheetInvalidError,
): string {
  if (name.startsWith('<')) {
    const iri = name.endsWith('>') ? name.slice(1, -1) : null;
    if (iri === null || !isValidIri(iri)) {
      throw invalid(`The header ${text} is not a valid <iri> (an absolute IRI without spaces, in < >).`);
    }
    return iri;
  }
  const prefixed = PREFIXED.exec(name);
  const known = naming.abbreviations();
  if (prefixed === null) {
    throw invalid(
      `The header ${text} is neither contextUri, etag, prefix:name (prefixes: ${known.join(', ')}) nor <iri>.`,
    );
  }
  const abbreviation = prefixed[1] ?? '';
  if (!known.includes(abbreviation)) {
    throw invalid(
      `The header ${text} names the prefix ${abbreviation}, which none of the view's schemas has (known: ${known.join(', ')}); write the property as <iri>.`,
    );
  }
  const predicate = naming.predicateOf(name);
  if (predicate === undefined || predicate === name) {
    throw invalid(
      `The header ${text} has no valid name after ${abbreviation}: (no spaces, /, # or ?); write the property as <iri>.`,
    );
  }
  return predicate;
}

/** The header of a predicate's column: `abbr:local` when a schema names it (else `<iri>`), then `[language]`. */
export function headerOf(predicate: string, language: string | null, naming: FieldNaming): string {
  const field = naming.fieldOf(predicate);
  const name = field === predicate || /[[\]<>]/u.test(field) ? `<${predicate}>` : field;
  return language === null ? name : `${name}[${language.toLowerCase()}]`;
}
