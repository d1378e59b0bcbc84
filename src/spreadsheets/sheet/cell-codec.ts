import type { Term } from '@rdfjs/types';
import { isValidIri, literal, namedNode } from '../../linked-data/rdf/terms.js';
import { NS, RDF_LANG_STRING, XSD } from '../../linked-data/rdf/vocab.js';
import type { Schema } from '../../schemas/schema.js';
import { VALUE_SEPARATOR, type SheetColumn } from '../spreadsheet.js';

/*
 * One spreadsheet cell ⇄ the RDF terms it holds (DECISIONS.md §13). A cell is values joined by `||`; a value
 * is `<iri>`, `"…"^^prefix:type`, `"…"^^<iri>`, `"…"` (a text quoted because bare it would be ambiguous), or
 * bare text. Inside quotes `\"` and `\\` are the only escapes. The CSV quoting around the cell is the CSV
 * library's business, not this file's.
 */

/** A cell that does not follow the grammar; the message says what is wrong in a full sentence. */
export class CellError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CellError';
  }
}

/** The datatype prefixes a sheet may use beyond the view's schemas. */
const BUILT_IN_PREFIXES: readonly (readonly [string, string])[] = [
  ['xsd', NS.xsd],
  ['rdf', NS.rdf],
];

/** What may follow `prefix:` in a datatype name: nothing that ends the value or reads as a path. */
const DATATYPE_LOCAL = /^[^\s|<>"'/#?\\]+$/u;
const PREFIXED = /^([A-Za-z][\w.-]*):(.*)$/u;

/**
 * The prefixes datatypes are written with: the view's schema abbreviations first (in the view's order), then
 * `xsd:` and `rdf:`. An abbreviation is taken by the first that has it, so a name written always reads back
 * as the datatype it was written for.
 */
export class DatatypePrefixes {
  private readonly namespaces = new Map<string, string>();

  constructor(schemas: readonly Pick<Schema, 'abbreviation' | 'namespace'>[]) {
    for (const schema of schemas) this.add(schema.abbreviation, schema.namespace);
    for (const [prefix, namespace] of BUILT_IN_PREFIXES) this.add(prefix, namespace);
  }

  private add(prefix: string, namespace: string): void {
    if (!this.namespaces.has(prefix)) this.namespaces.set(prefix, namespace);
  }

  /** `prefix:local` when a prefix holds the IRI as a plain local name, else `<iri>`. */
  nameOf(iri: string): string {
    for (const [prefix, namespace] of this.namespaces) {
      if (!iri.startsWith(namespace)) continue;
      const local = iri.slice(namespace.length);
      if (DATATYPE_LOCAL.test(local)) return `${prefix}:${local}`;
    }
    return `<${iri}>`;
  }

  /** The IRI a `prefix:local` names, or undefined when the prefix is unknown. */
  iriOf(prefixed: string): string | undefined {
    const match = PREFIXED.exec(prefixed);
    if (match === null) return undefined;
    const [, prefix = '', local = ''] = match;
    const namespace = this.namespaces.get(prefix);
    return namespace === undefined ? undefined : namespace + local;
  }

  /** The prefixes known, for messages. */
  names(): string[] {
    return [...this.namespaces.keys()];
  }
}

/**
 * The cell for a column's terms, in their order. Language-tagged literals (the column's language) and plain
 * literals are written bare unless bare text would read back differently; IRIs as `<iri>`; other typed
 * literals quoted with their datatype. Blank nodes are never written (a sheet cannot name them).
 */
export function encodeCell(terms: readonly Term[], prefixes: DatatypePrefixes): string {
  return terms.map((term) => encodeValue(term, prefixes)).join(VALUE_SEPARATOR);
}

function encodeValue(term: Term, prefixes: DatatypePrefixes): string {
  if (term.termType === 'NamedNode') return `<${term.value}>`;
  if (term.termType !== 'Literal') throw new Error(`A ${term.termType} cannot be written in a cell`);
  const datatype = term.datatype.value;
  if (term.language !== '' || datatype === XSD.string || datatype === RDF_LANG_STRING) {
    return isAmbiguousBare(term.value) ? quote(term.value) : term.value;
  }
  return `${quote(term.value)}^^${prefixes.nameOf(datatype)}`;
}

/**
 * Whether bare text would not read back as itself: empty, a start that opens a quoted value or an IRI (or
 * that a spreadsheet program may eat: `'`), whitespace the import trims, or a `|` that could join with a
 * neighbouring separator.
 */
function isAmbiguousBare(text: string): boolean {
  return (
    text === '' ||
    /^[<"']/u.test(text) ||
    text !== text.trim() ||
    text.includes(VALUE_SEPARATOR) ||
    text.startsWith('|') ||
    text.endsWith('|')
  );
}

function quote(text: string): string {
  return `"${text.replace(/[\\"]/gu, (c) => `\\${c}`)}"`;
}

/**
 * The terms a cell holds for `column`: its values in order (an empty or blank cell holds none). A bare value
 * is trimmed; in a column with a language every value is a literal with that language, so IRIs and typed
 * literals belong in the column without one. Throws CellError naming what is wrong.
 */
export function decodeCell(text: string, column: SheetColumn, prefixes: DatatypePrefixes): Term[] {
  const terms: Term[] = [];
  if (text.trim() === '') return terms;
  const reader = new CellReader(text, column, prefixes);
  for (;;) {
    terms.push(reader.value(terms.length + 1));
    if (reader.atEnd()) return terms;
    reader.separator();
  }
}

/** Reads one cell's values left to right. */
class CellReader {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly column: SheetColumn,
    private readonly prefixes: DatatypePrefixes,
  ) {}

  atEnd(): boolean {
    return this.at >= this.text.length;
  }

  /** The `||` after a value (the value readers stop at it or at the end). */
  separator(): void {
    this.at += VALUE_SEPARATOR.length;
  }

  /** The n-th value (1-based, for messages), leaving the reader at `||` or the end. */
  value(n: number): Term {
    this.skipSpace();
    const first = this.text[this.at];
    if (first === '"') return this.quoted(n);
    if (first === '<') return this.iri(n);
    return this.bare(n);
  }

  private bare(n: number): Term {
    const end = this.text.indexOf(VALUE_SEPARATOR, this.at);
    const stop = end < 0 ? this.text.length : end;
    const value = this.text.slice(this.at, stop).trim();
    this.at = stop;
    if (value === '') {
      throw new CellError(`Value ${n} is empty: remove the extra "||", or write "" for an empty text.`);
    }
    return this.textTerm(value);
  }

  private iri(n: number): Term {
    const close = this.text.indexOf('>', this.at);
    if (close < 0) {
      throw new CellError(
        `Value ${n} opens an IRI with "<" but never closes it with ">"; write "<…" in double quotes if it is a text.`,
      );
    }
    const iri = this.text.slice(this.at + 1, close);
    this.at = close + 1;
    if (!isValidIri(iri)) {
      throw new CellError(
        `Value ${n}, <${iri}>, is not an absolute IRI (a scheme, and no spaces or <>"{}|\\^\` characters).`,
      );
    }
    this.endOfValue(n);
    if (this.column.language !== null) {
      throw new CellError(
        `Value ${n}, <${iri}>, is an IRI, but a column with a language holds only texts; put IRIs in the column without [${this.column.language}], or write the text in double quotes.`,
      );
    }
    return namedNode(iri);
  }

  private quoted(n: number): Term {
    let value = '';
    let i = this.at + 1;
    for (;;) {
      if (i >= this.text.length) {
        throw new CellError(`Value ${n} opens a double quote that is never closed.`);
      }
      const c = this.text.charAt(i);
      if (c === '"') break;
      if (c === '\\') {
        const next = this.text[i + 1];
        if (next !== '"' && next !== '\\') {
          throw new CellError(
            `Value ${n} has a backslash inside double quotes not followed by " or \\; write \\\\ for a backslash.`,
          );
        }
        value += next;
        i += 2;
      } else {
        value += c;
        i += 1;
      }
    }
    this.at = i + 1;
    if (!this.text.startsWith('^^', this.at)) {
      this.endOfValue(n);
      return this.textTerm(value);
    }
    this.at += 2;
    const datatype = this.datatype(n);
    this.endOfValue(n);
    if (this.column.language !== null) {
      throw new CellError(
        `Value ${n} is a typed literal, but a column with a language holds only texts; put it in the column without [${this.column.language}].`,
      );
    }
    if (datatype === RDF_LANG_STRING) {
      throw new CellError(
        `Value ${n} is typed rdf:langString, which needs a language: put the text in a column with [language] instead.`,
      );
    }
    return literal(value, namedNode(datatype));
  }

  /** The datatype after `^^`: `<iri>` or `prefix:local`. */
  private datatype(n: number): string {
    if (this.text[this.at] === '<') {
      const close = this.text.indexOf('>', this.at);
      if (close < 0) throw new CellError(`Value ${n}'s datatype opens "<" but never closes it with ">".`);
      const iri = this.text.slice(this.at + 1, close);
      this.at = close + 1;
      if (!isValidIri(iri)) throw new CellError(`Value ${n}'s datatype <${iri}> is not an absolute IRI.`);
      return iri;
    }
    const rest = this.text.slice(this.at);
    const name = /^[^\s|]*/u.exec(rest)?.[0] ?? '';
    this.at += name.length;
    if (name === '') {
      throw new CellError(`Value ${n} has "^^" but no datatype after it (prefix:type or <iri>).`);
    }
    const iri = this.prefixes.iriOf(name);
    if (iri === undefined) {
      throw new CellError(
        `Value ${n}'s datatype ${name} names no known prefix (known: ${this.prefixes.names().join(', ')}); write the datatype as <iri>.`,
      );
    }
    if (!isValidIri(iri)) throw new CellError(`Value ${n}'s datatype ${name} is not a valid IRI.`);
    return iri;
  }

  /** After a quoted value or an IRI: only whitespace, then `||` or the end. */
  private endOfValue(n: number): void {
    this.skipSpace();
    if (this.atEnd() || this.text.startsWith(VALUE_SEPARATOR, this.at)) return;
    throw new CellError(
      `Value ${n} has text after its end, ${JSON.stringify(this.text.slice(this.at, this.at + 20))}; separate values with "||", or write the whole value in double quotes.`,
    );
  }

  private skipSpace(): void {
    while (!this.atEnd() && /\s/u.test(this.text.charAt(this.at))) this.at += 1;
  }

  private textTerm(value: string): Term {
    return this.column.language === null ? literal(value) : literal(value, this.column.language);
  }
}

/** What makes a spreadsheet program read a cell as a formula (or eat its first character). */
const FORMULA_START = /^[=+\-@\t\r']/u;

/** A cell as written to a sheet: one leading `'` when the text would start a formula. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A cell as read from a sheet: exactly one leading `'` removed, when there is one. */
export function unguardFormula(text: string): string {
  return text.startsWith("'") ? text.slice(1) : text;
}
