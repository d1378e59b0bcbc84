import type { Quad, Term } from '@rdfjs/types';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { RDF_LANG_STRING, XSD } from '../linked-data/rdf/vocab.js';
import { BadRequestError } from '../shared/errors.js';
import {
  beyondUnicodeProblem,
  hasLoneSurrogate,
  LONE_SURROGATE_PROBLEM,
  MAX_CODE_POINT,
} from '../shared/unicode.js';

/** A triple on the wire (interface §2 Triple, DECISIONS.md §7). */
export interface WireTriple {
  subject: string;
  predicate: string;
  object: string;
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** Subject and predicate as bare IRIs, an IRI object bare, a literal in N-Triples form. */
export function toWireTriple(q: Quad): WireTriple {
  return { subject: termText(q.subject), predicate: q.predicate.value, object: termText(q.object) };
}

export function termText(term: Term): string {
  if (term.termType !== 'Literal') return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
  const body = `"${term.value.replace(/["\\\n\r\t]/g, (c) => ESCAPES[c] ?? c)}"`;
  if (term.language !== '') return `${body}@${term.language}`;
  const datatype = term.datatype.value;
  return datatype === XSD.string || datatype === RDF_LANG_STRING ? body : `${body}^^<${datatype}>`;
}

const IRI = /^[a-z][a-z0-9+.-]*:[^\s<>"{}|\\^`]*$/i;
const LITERAL = /^"((?:[^"\\]|\\.)*)"(?:@([a-zA-Z]{1,8}(?:-[a-zA-Z0-9]{1,8})*)|\^\^<([^\s<>"{}|\\^`]+)>)?$/s;

function notUnicode(field: string, problem: string): BadRequestError {
  return new BadRequestError(`A triple's ${field} is not valid Unicode: ${problem}`);
}

/** Refuses a lone surrogate (sent as JSON `"\ud800"`, or decoded from `\uD800`): a 400 naming the field. */
function requireWellFormed(text: string, field: string): void {
  if (hasLoneSurrogate(text)) throw notUnicode(field, LONE_SURROGATE_PROBLEM);
}

/** An absolute IRI, bare or in angle brackets; anything else is a 400 naming the field. */
export function parseIri(text: unknown, field: string): string {
  if (typeof text !== 'string' || text.length === 0 || text.length > 4000)
    throw new BadRequestError(`A triple's ${field} must be an IRI`);
  requireWellFormed(text, field);
  const bare = text.startsWith('<') && text.endsWith('>') ? text.slice(1, -1) : text;
  if (!IRI.test(bare))
    throw new BadRequestError(`A triple's ${field} must be an absolute IRI, got "${text.slice(0, 80)}"`);
  return bare;
}

/**
 * The object forms of DECISIONS.md §7: `<iri>`, an N-Triples literal (`"x"`, `"x"@fr`,
 * `"5"^^<…#integer>`, with `\"`, `\\`, `\n` escapes), or unquoted text — a plain literal unless it is an
 * absolute IRI. The value becomes a term; it is never pasted into a query.
 */
export function parseObject(text: unknown): Term {
  if (typeof text !== 'string') throw new BadRequestError("A triple's object must be a string");
  if (text.length > 100_000)
    throw new BadRequestError("A triple's object must be no more than 100000 characters");
  requireWellFormed(text, 'object');
  if (text.startsWith('<') && text.endsWith('>')) return namedNode(parseIri(text, 'object'));
  if (text.startsWith('"')) {
    const match = LITERAL.exec(text);
    if (match === null)
      throw new BadRequestError(`A triple's object is not a valid literal: ${text.slice(0, 80)}`);
    const value = unescape(match[1] ?? '');
    // `\uD800` alone decodes to a lone surrogate; a pair of such escapes is one character and passes.
    requireWellFormed(value, 'object');
    if (match[2] !== undefined) return literal(value, match[2]);
    if (match[3] !== undefined) return literal(value, namedNode(parseIri(match[3], 'datatype')));
    return literal(value);
  }
  if (/^(https?|urn|info|mailto|ark|doi):/i.test(text) && IRI.test(text)) return namedNode(text);
  return literal(text);
}

function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, code: string) => {
    if (code.length > 1) {
      // String.fromCodePoint throws a RangeError (a 500) beyond U+10FFFF: refused before it.
      const point = parseInt(code.slice(1), 16);
      if (point > MAX_CODE_POINT) throw notUnicode('object', beyondUnicodeProblem(`\\${code}`));
      return String.fromCodePoint(point);
    }
    const map: Record<string, string> = {
      n: '\n',
      r: '\r',
      t: '\t',
      '"': '"',
      '\\': '\\',
      "'": "'",
      b: '\b',
      f: '\f',
    };
    const replacement = map[code];
    if (replacement === undefined) throw new BadRequestError(`Unknown escape \\${code} in a literal`);
    return replacement;
  });
}

/** A wire triple from a request body, as a quad. */
export function parseWireTriple(body: unknown): Quad {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new BadRequestError('A triple must be an object with subject, predicate and object');
  const { subject, predicate, object } = body as Record<string, unknown>;
  return quad(
    namedNode(parseIri(subject, 'subject')),
    namedNode(parseIri(predicate, 'predicate')),
    parseObject(object) as Quad['object'],
  );
}
