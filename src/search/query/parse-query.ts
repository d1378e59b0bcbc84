import { RE2JS, RE2JSSyntaxException } from 're2js';
import { InvalidQueryError, type Comparison, type QueryTerm } from '../search.js';

/**
 * The search query language of DECISIONS.md §12, parsed into terms joined by AND:
 *
 * - `word`, `word*` (prefix), `"a phrase"`; `-term` excludes (any term, one `-`).
 * - `dcterms:title:word`, `dcterms:title:word*`, `dcterms:title:"a phrase"`, `<full-iri>:word`: in one predicate.
 * - `dcterms:date:/^[0-9]{4}$/`: an RE2 expression over that predicate's values (no flags after the closing
 *   `/`: write `(?i)` first for case-insensitive; a `/` inside is written `\/`).
 * - `has:dcterms:date`, `type:pcdm:Object` (or `type:<iri>`), `binary:true|false`,
 *   `modified:>=2026-01-01` (`>`, `>=`, `<`, `<=`; a date is its UTC midnight, a date-time without a zone is UTC).
 *
 * A colon outside quotes always makes a field term: the text before the first colon must be one of the
 * keywords `has`, `type`, `binary`, `modified` (they win over a schema abbreviated alike) or a prefix of the
 * view's schemas, else the query is INVALID ("unknown prefix"). So `http://…` or `10:30` unquoted are refused
 * with a hint to quote them — `"10:30"` searches that text — rather than silently searched as words: a
 * mistyped prefix must not quietly match nothing. A colon inside a field term's value is kept
 * (`dcterms:identifier:urn:isbn:123`).
 *
 * Errors are `InvalidQueryError(why, position)`, the position a 0-based UTF-16 offset into `q`.
 */
export type PrefixResolver = (prefixedName: string) => string | undefined;

export interface ParseOptions {
  /** The prefixes `resolve` knows, named in an unknown prefix's message. */
  readonly prefixes?: readonly string[];
}

/** Longest query, in characters: a search box's query, not a document. */
export const MAX_QUERY_LENGTH = 1000;
/** Most terms: each becomes a condition of the index's query. */
export const MAX_TERMS = 20;
/** Longest regular expression, in characters: RE2 runs in linear time, but its automaton grows with it. */
export const MAX_REGEX_LENGTH = 200;

const KEYWORDS = new Set(['has', 'type', 'binary', 'modified']);
/** Characters an IRI cannot hold (schema.ts isHttpIri refuses the same). */
const NOT_IN_IRI = /[\s<>"{}|\\^`]/u;
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/u;

/** Parses `q`; an empty or blank `q` is no terms (everything matches). Throws `InvalidQueryError`. */
export function parseQuery(q: string, resolve: PrefixResolver, options: ParseOptions = {}): QueryTerm[] {
  if (q.length > MAX_QUERY_LENGTH)
    throw new InvalidQueryError(
      `The query is longer than ${MAX_QUERY_LENGTH} characters; shorten it`,
      MAX_QUERY_LENGTH,
    );
  return new Parser(q, resolve, options.prefixes).terms();
}

function isSpace(char: string | undefined): boolean {
  return char !== undefined && /\s/u.test(char);
}

class Parser {
  private at = 0;

  constructor(
    private readonly q: string,
    private readonly resolve: PrefixResolver,
    private readonly prefixes: readonly string[] | undefined,
  ) {}

  terms(): QueryTerm[] {
    const terms: QueryTerm[] = [];
    for (;;) {
      while (isSpace(this.q[this.at])) this.at++;
      if (this.atEnd()) return terms;
      if (terms.length === MAX_TERMS)
        throw new InvalidQueryError(`The query has more than ${MAX_TERMS} terms; narrow it`, this.at);
      terms.push(this.term());
      // Every term ends at a space or at the end; each kind checks what follows it.
    }
  }

  private term(): QueryTerm {
    const start = this.at;
    let negated = false;
    if (this.q[this.at] === '-') {
      negated = true;
      this.at++;
      if (this.atBoundary())
        throw new InvalidQueryError('A lone - excludes nothing: write it before a term, as in -draft', start);
      if (this.q[this.at] === '-') throw new InvalidQueryError('A term takes one - at most', this.at);
    }
    const char = this.q[this.at];
    if (char === '"') return { kind: 'PHRASE', text: this.phrase(), predicate: null, negated };
    if (char === '<') {
      const predicate = this.iriRef();
      return this.valueTerm(predicate, negated);
    }
    if (char === '/')
      throw new InvalidQueryError(
        'A regular expression needs a predicate, as in dcterms:date:/^[0-9]{4}$/ (quote text that starts with /)',
        this.at,
      );
    const bodyAt = this.at;
    const head = this.scan((c) => c !== ':');
    if (this.q[this.at] === ':') return this.fieldTerm(head, bodyAt, negated);
    return { kind: 'WORD', ...this.word(bodyAt), predicate: null, negated };
  }

  /** `has:…`, `type:…`, `binary:…`, `modified:…` or `prefix:local:value`; `at` is on the first colon. */
  private fieldTerm(head: string, headAt: number, negated: boolean): QueryTerm {
    if (KEYWORDS.has(head)) {
      this.at++;
      switch (head) {
        case 'has':
          return { kind: 'HAS', predicate: this.lonePredicate('has'), negated };
        case 'type':
          return { kind: 'TYPE', type: this.lonePredicate('type'), negated };
        case 'binary':
          return { kind: 'BINARY', value: this.binaryValue(), negated };
        default:
          return { kind: 'MODIFIED', ...this.modified(), negated };
      }
    }
    const predicate = this.prefixedName(head, headAt);
    if (this.q[this.at] !== ':') {
      const name = this.q.slice(headAt, this.at);
      throw new InvalidQueryError(
        `${name} names a predicate: search in it with ${name}:word, or ask for it with has:${name}`,
        this.at,
      );
    }
    return this.valueTerm(predicate, negated);
  }

  /** After a predicate, on its `:`: a word, `word*`, `"a phrase"` or `/regex/` in that predicate. */
  private valueTerm(predicate: string, negated: boolean): QueryTerm {
    if (this.q[this.at] !== ':')
      throw new InvalidQueryError('Expected : and a value after the predicate <…>', this.at);
    this.at++;
    if (this.atBoundary())
      throw new InvalidQueryError(
        'Expected a word, "a phrase" or /a regular expression/ after the :',
        this.at,
      );
    const char = this.q[this.at];
    if (char === '"') return { kind: 'PHRASE', text: this.phrase(), predicate, negated };
    if (char === '/') return { kind: 'REGEX', predicate, pattern: this.regex(), negated };
    return { kind: 'WORD', ...this.word(this.at), predicate, negated };
  }

  /** A word starting at `start` (`at` may already be inside it), up to the next space. */
  private word(start: number): { text: string; prefix: boolean } {
    this.scan(() => true);
    const text = this.q.slice(start, this.at);
    const quote = text.indexOf('"');
    if (quote >= 0)
      throw new InvalidQueryError(
        'A quote inside a word: put a phrase in quotes of its own, separated by spaces',
        start + quote,
      );
    const star = text.indexOf('*');
    if (star >= 0 && star !== text.length - 1)
      throw new InvalidQueryError('A * may only end a word, as in manuscr*', start + star);
    const prefix = star >= 0;
    const body = prefix ? text.slice(0, -1) : text;
    if (body === '') throw new InvalidQueryError('A lone * matches nothing: put it after a word', start);
    if (!LETTER_OR_DIGIT.test(body))
      throw new InvalidQueryError('A word must contain a letter or a digit', start);
    return { text: body, prefix };
  }

  /** `"a phrase"` from its opening quote; the text between the quotes, its spaces collapsed. */
  private phrase(): string {
    const open = this.at;
    const close = this.q.indexOf('"', open + 1);
    if (close < 0)
      throw new InvalidQueryError('Unbalanced quote: the phrase opened here is never closed', open);
    const text = this.q
      .slice(open + 1, close)
      .trim()
      .replace(/\s+/gu, ' ');
    if (text === '') throw new InvalidQueryError('An empty phrase: put words between the quotes', open);
    if (!LETTER_OR_DIGIT.test(text))
      throw new InvalidQueryError('A phrase must contain a letter or a digit', open);
    this.at = close + 1;
    if (!this.atBoundary()) throw new InvalidQueryError('Expected a space after the closing quote', this.at);
    return text;
  }

  /** `/pattern/` from its opening slash: RE2 must compile it. */
  private regex(): string {
    const open = this.at;
    let i = open + 1;
    let inClass = false;
    for (; i < this.q.length; i++) {
      const c = this.q[i];
      if (c === '\\') i++;
      else if (inClass) {
        if (c === ']') inClass = false;
      } else if (c === '[') {
        inClass = true;
        // A ] right after [ or [^ is a literal one.
        if (this.q[i + 1] === '^') i++;
        if (this.q[i + 1] === ']') i++;
      } else if (c === '/') break;
    }
    if (i >= this.q.length) throw new InvalidQueryError('Unclosed regular expression: end it with /', open);
    const pattern = this.q.slice(open + 1, i);
    if (pattern === '') throw new InvalidQueryError('An empty regular expression', open);
    if (pattern.length > MAX_REGEX_LENGTH)
      throw new InvalidQueryError(
        `A regular expression may be at most ${MAX_REGEX_LENGTH} characters long`,
        open + 1,
      );
    this.at = i + 1;
    if (!this.atBoundary())
      throw new InvalidQueryError(
        'A regular expression ends at its closing / (no flags: start it with (?i) to ignore case)',
        this.at,
      );
    try {
      RE2JS.compile(pattern);
    } catch (error) {
      if (!(error instanceof RE2JSSyntaxException)) throw error;
      const fragment = error.getPattern();
      const offset = fragment === null || fragment === '' ? -1 : pattern.indexOf(fragment);
      throw new InvalidQueryError(
        `Invalid regular expression: ${error.getDescription()}${fragment === null ? '' : `: ${fragment}`}`,
        open + 1 + Math.max(offset, 0),
      );
    }
    return pattern;
  }

  /** The predicate or type after `has:` / `type:`, and nothing after it. */
  private lonePredicate(keyword: string): string {
    if (this.atBoundary())
      throw new InvalidQueryError(
        `Expected a ${keyword === 'type' ? 'type' : 'predicate'} after ${keyword}:, as in ${keyword}:${keyword === 'type' ? 'pcdm:Object' : 'dcterms:date'}`,
        this.at,
      );
    let iri: string;
    if (this.q[this.at] === '<') iri = this.iriRef();
    else {
      const headAt = this.at;
      const head = this.scan((c) => c !== ':');
      if (this.q[this.at] !== ':')
        throw new InvalidQueryError(
          `Expected a prefixed name (prefix:name) or <iri> after ${keyword}:`,
          headAt,
        );
      iri = this.prefixedName(head, headAt);
    }
    if (!this.atBoundary())
      throw new InvalidQueryError(`Unexpected text after the ${keyword}: term`, this.at);
    return iri;
  }

  /** `prefix:local` with `at` on the colon after the prefix; leaves `at` after the local name. */
  private prefixedName(prefix: string, prefixAt: number): string {
    if (prefix === '') throw new InvalidQueryError('Expected a prefix before the :', prefixAt);
    this.at++;
    const localAt = this.at;
    const local = this.scan((c) => c !== ':');
    const iri = this.resolve(`${prefix}:${local}`);
    if (iri === undefined) {
      const known =
        this.prefixes === undefined
          ? ''
          : this.prefixes.length === 0
            ? ' (the view has no schemas)'
            : ` (the view's schemas define ${this.prefixes.join(', ')})`;
      throw new InvalidQueryError(
        `Unknown prefix ${prefix}${known}; to search for text with a colon, put it in quotes`,
        prefixAt,
      );
    }
    if (local === '')
      throw new InvalidQueryError(`Expected a name after ${prefix}:, as in ${prefix}:title`, localAt);
    const bad = NOT_IN_IRI.exec(local);
    if (bad !== null)
      throw new InvalidQueryError(`A prefixed name cannot contain ${bad[0]}`, localAt + bad.index);
    return iri;
  }

  /** `<iri>` from its `<`; leaves `at` after the `>`. */
  private iriRef(): string {
    const open = this.at;
    let i = open + 1;
    while (i < this.q.length && this.q[i] !== '>' && !isSpace(this.q[i])) i++;
    if (this.q[i] !== '>') throw new InvalidQueryError('Unclosed <: an IRI ends with >', open);
    const iri = this.q.slice(open + 1, i);
    if (!ABSOLUTE_IRI.test(iri))
      throw new InvalidQueryError('Expected an absolute IRI between < and >', open + 1);
    this.at = i + 1;
    return iri;
  }

  private binaryValue(): boolean {
    const start = this.at;
    const value = this.scan(() => true);
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new InvalidQueryError(
      value === '' ? 'Expected true or false after binary:' : `binary: takes true or false, not ${value}`,
      start,
    );
  }

  private modified(): { comparison: Comparison; time: number } {
    const comparisonAt = this.at;
    const comparison = (['>=', '<=', '>', '<'] as const).find((c) => this.q.startsWith(c, this.at));
    if (comparison === undefined)
      throw new InvalidQueryError(
        'Expected a comparison (>, >=, < or <=) after modified:, as in modified:>=2026-01-01',
        comparisonAt,
      );
    this.at += comparison.length;
    const dateAt = this.at;
    const text = this.scan(() => true);
    const time = timeOf(text);
    if (time === undefined)
      throw new InvalidQueryError(
        text === ''
          ? `Expected a date after modified:${comparison}, as in 2026-01-01`
          : `${text} is not a date (2026-01-01) or an ISO date-time (2026-01-01T12:00:00Z)`,
        dateAt,
      );
    return { comparison, time };
  }

  /** Reads up to a space or the end while `accept` holds; returns what it read. */
  private scan(accept: (char: string) => boolean): string {
    const start = this.at;
    while (!this.atBoundary() && accept(this.q[this.at] ?? '')) this.at++;
    return this.q.slice(start, this.at);
  }

  private atEnd(): boolean {
    return this.at >= this.q.length;
  }

  private atBoundary(): boolean {
    return this.atEnd() || isSpace(this.q[this.at]);
  }
}

/** Epoch milliseconds of a date (its UTC midnight) or an ISO date-time (UTC unless it names a zone). */
function timeOf(text: string): number | undefined {
  const match = DATE.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0', zone] = match;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = parts;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number(ms.padEnd(3, '0')));
  const back = new Date(local);
  // Date.UTC rolls 2026-02-30 over to March: a value that does not come back as given is no date.
  if (
    back.getUTCFullYear() !== year ||
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day ||
    back.getUTCHours() !== hour ||
    back.getUTCMinutes() !== minute ||
    back.getUTCSeconds() !== second
  )
    return undefined;
  if (zone === undefined || zone === 'Z') return local;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [zoneHours, zoneMinutes] = zone.slice(1).split(':').map(Number) as [number, number];
  if (zoneHours > 14 || zoneMinutes > 59) return undefined;
  return local - sign * (zoneHours * 60 + zoneMinutes) * 60_000;
}
