import { describe, expect, it } from 'vitest';
import { InvalidQueryError } from '../search.js';
import { MAX_QUERY_LENGTH, MAX_REGEX_LENGTH, MAX_TERMS, parseQuery } from './parse-query.js';
import { schemaResolver } from './prefixes.js';

const DCTERMS = 'http://purl.org/dc/terms/';
const PCDM = 'http://pcdm.org/models#';
const SCHEMAS = [
  { abbreviation: 'dcterms', namespace: DCTERMS },
  { abbreviation: 'pcdm', namespace: PCDM },
  // A schema abbreviated like a keyword: the keyword wins.
  { abbreviation: 'type', namespace: 'http://example.org/type#' },
];
const resolve = schemaResolver(SCHEMAS);
const parse = (q: string) => parseQuery(q, resolve, { prefixes: SCHEMAS.map((s) => s.abbreviation) });

/** The error `q` raises: its message and position. */
function failure(q: string): { message: string; position: number | null } {
  try {
    parse(q);
  } catch (error) {
    if (error instanceof InvalidQueryError) return { message: error.message, position: error.position };
    throw error;
  }
  throw new Error(`${q} parsed`);
}

const utc = (text: string) => Date.parse(text);

describe('parseQuery: every form of DECISIONS.md §12', () => {
  it('reads nothing from an empty or blank query (everything matches)', () => {
    expect(parse('')).toEqual([]);
    expect(parse('   \t ')).toEqual([]);
  });

  it('reads words, prefixes and phrases, joined by AND in order', () => {
    expect(parse('  austin  manuscr* "a  letter home" ')).toEqual([
      { kind: 'WORD', text: 'austin', prefix: false, predicate: null, negated: false },
      { kind: 'WORD', text: 'manuscr', prefix: true, predicate: null, negated: false },
      { kind: 'PHRASE', text: 'a letter home', predicate: null, negated: false },
    ]);
  });

  it('keeps punctuation inside a word for the index to tokenize', () => {
    expect(parse("o'brien foo-bar a<b")).toEqual([
      { kind: 'WORD', text: "o'brien", prefix: false, predicate: null, negated: false },
      { kind: 'WORD', text: 'foo-bar', prefix: false, predicate: null, negated: false },
      { kind: 'WORD', text: 'a<b', prefix: false, predicate: null, negated: false },
    ]);
  });

  it('negates any term with a leading -', () => {
    expect(
      parse(
        '-draft -"old copy" -dcterms:title:x -has:dcterms:date -type:pcdm:Object -binary:true -modified:<2020-01-01 -dcterms:date:/^\\d+$/',
      ).map((term) => [term.kind, term.negated]),
    ).toEqual([
      ['WORD', true],
      ['PHRASE', true],
      ['WORD', true],
      ['HAS', true],
      ['TYPE', true],
      ['BINARY', true],
      ['MODIFIED', true],
      ['REGEX', true],
    ]);
  });

  it('reads words and phrases in one predicate, by prefixed name or full IRI', () => {
    expect(
      parse('dcterms:title:austin dcterms:title:aus* dcterms:title:"a phrase" <http://example.org/p>:word'),
    ).toEqual([
      { kind: 'WORD', text: 'austin', prefix: false, predicate: `${DCTERMS}title`, negated: false },
      { kind: 'WORD', text: 'aus', prefix: true, predicate: `${DCTERMS}title`, negated: false },
      { kind: 'PHRASE', text: 'a phrase', predicate: `${DCTERMS}title`, negated: false },
      { kind: 'WORD', text: 'word', prefix: false, predicate: 'http://example.org/p', negated: false },
    ]);
  });

  it('keeps a colon inside a field term’s value', () => {
    expect(parse('dcterms:identifier:urn:isbn:123')).toEqual([
      {
        kind: 'WORD',
        text: 'urn:isbn:123',
        prefix: false,
        predicate: `${DCTERMS}identifier`,
        negated: false,
      },
    ]);
  });

  it('reads has:, type: and binary:', () => {
    expect(
      parse('has:dcterms:date has:<http://example.org/p> type:pcdm:Object type:<urn:x:t> binary:false'),
    ).toEqual([
      { kind: 'HAS', predicate: `${DCTERMS}date`, negated: false },
      { kind: 'HAS', predicate: 'http://example.org/p', negated: false },
      { kind: 'TYPE', type: `${PCDM}Object`, negated: false },
      { kind: 'TYPE', type: 'urn:x:t', negated: false },
      { kind: 'BINARY', value: false, negated: false },
    ]);
    expect(parse('binary:true')).toEqual([{ kind: 'BINARY', value: true, negated: false }]);
  });

  it('lets the keywords win over a schema abbreviated alike', () => {
    expect(parse('type:pcdm:File')).toEqual([{ kind: 'TYPE', type: `${PCDM}File`, negated: false }]);
  });

  it('reads every comparison of modified:, dates as UTC midnight and date-times in UTC', () => {
    expect(
      parse(
        'modified:>=2026-01-01 modified:>2026-01-01T10:30 modified:<2026-02-28T23:59:59.5Z modified:<=2026-03-01T01:00:00+01:00',
      ),
    ).toEqual([
      { kind: 'MODIFIED', comparison: '>=', time: utc('2026-01-01T00:00:00Z'), negated: false },
      { kind: 'MODIFIED', comparison: '>', time: utc('2026-01-01T10:30:00Z'), negated: false },
      { kind: 'MODIFIED', comparison: '<', time: utc('2026-02-28T23:59:59.500Z'), negated: false },
      { kind: 'MODIFIED', comparison: '<=', time: utc('2026-03-01T00:00:00Z'), negated: false },
    ]);
  });

  it('reads a regular expression over a predicate, escaped slashes and classes included', () => {
    expect(
      parse('dcterms:date:/^[0-9]{4}$/ dcterms:title:/a\\/b[/]c/ <http://example.org/p>:/(?i)x/'),
    ).toEqual([
      { kind: 'REGEX', predicate: `${DCTERMS}date`, pattern: '^[0-9]{4}$', negated: false },
      { kind: 'REGEX', predicate: `${DCTERMS}title`, pattern: 'a\\/b[/]c', negated: false },
      { kind: 'REGEX', predicate: 'http://example.org/p', pattern: '(?i)x', negated: false },
    ]);
  });

  it('accepts exactly the most terms and the longest query', () => {
    expect(parse(Array.from({ length: MAX_TERMS }, (_, i) => `w${i}`).join(' '))).toHaveLength(MAX_TERMS);
    expect(parse('a'.repeat(MAX_QUERY_LENGTH))).toHaveLength(1);
    expect(parse(`dcterms:date:/${'a'.repeat(MAX_REGEX_LENGTH)}/`)).toHaveLength(1);
  });

  it('resolves a prefix through the view’s schemas only', () => {
    expect(schemaResolver(SCHEMAS)('dcterms:title')).toBe(`${DCTERMS}title`);
    expect(schemaResolver(SCHEMAS)('dc:title')).toBeUndefined();
    expect(schemaResolver(SCHEMAS)('title')).toBeUndefined();
  });
});

describe('parseQuery: every error names where and why', () => {
  it.each([
    // [query, position, message fragment]
    ['austin "a letter', 7, 'Unbalanced quote'],
    ['dcterms:title:"never closed', 14, 'Unbalanced quote'],
    ['a "b"c', 5, 'Expected a space after the closing quote'],
    ['ab"cd', 2, 'A quote inside a word'],
    ['x ""', 2, 'An empty phrase'],
    ['"  "', 0, 'An empty phrase'],
    ['"!!"', 0, 'A phrase must contain a letter or a digit'],
    ['x - y', 2, 'A lone -'],
    ['x -', 2, 'A lone -'],
    ['--x', 1, 'one - at most'],
    ['*', 0, 'A lone *'],
    ['ab*c', 2, 'A * may only end a word'],
    ['*ab', 0, 'A * may only end a word'],
    ['&&', 0, 'A word must contain a letter or a digit'],
    ['foo:bar', 0, 'Unknown prefix foo'],
    ['x -dc:title:austin', 3, 'Unknown prefix dc'],
    ['http://example.org', 0, 'Unknown prefix http'],
    ['10:30', 0, 'Unknown prefix 10'],
    ['has:dc:date', 4, 'Unknown prefix dc'],
    [':x', 0, 'Expected a prefix'],
    ['dcterms:title', 13, 'dcterms:title names a predicate'],
    ['dcterms::x', 8, 'Expected a name after dcterms:'],
    ['dcterms:ti{tle:x', 10, 'A prefixed name cannot contain {'],
    ['dcterms:title:', 14, 'Expected a word, "a phrase" or /a regular expression/'],
    ['dcterms:title: x', 14, 'Expected a word'],
    ['<http://example.org/p:x', 0, 'Unclosed <'],
    ['<not an iri>:x', 0, 'Unclosed <'],
    ['<relative>:x', 1, 'Expected an absolute IRI'],
    ['<http://example.org/p>', 22, 'Expected : and a value'],
    ['<http://example.org/p>x', 22, 'Expected : and a value'],
    ['has:', 4, 'Expected a predicate after has:'],
    ['type:', 5, 'Expected a type after type:'],
    ['has:date', 4, 'Expected a prefixed name'],
    ['has:dcterms:date:x', 16, 'Unexpected text after the has: term'],
    ['type:<urn:x>y', 12, 'Unexpected text after the type: term'],
    ['binary:yes', 7, 'binary: takes true or false, not yes'],
    ['binary:TRUE', 7, 'binary: takes true or false'],
    ['binary:', 7, 'Expected true or false'],
    ['modified:2026-01-01', 9, 'Expected a comparison'],
    ['modified:=2026-01-01', 9, 'Expected a comparison'],
    ['modified:>=', 11, 'Expected a date'],
    ['modified:>=2026-02-30', 11, '2026-02-30 is not a date'],
    ['modified:<2026-1-1', 10, 'is not a date'],
    ['modified:<2026-01-01T25:00', 10, 'is not a date'],
    ['modified:<2026-01-01T10:00+15:00', 10, 'is not a date'],
    ['modified:>=yesterday', 11, 'yesterday is not a date'],
    ['/^a/', 0, 'A regular expression needs a predicate'],
    ['dcterms:date:/^a', 13, 'Unclosed regular expression'],
    ['dcterms:date://', 13, 'An empty regular expression'],
    ['dcterms:date:/a/i', 16, 'no flags'],
    ['dcterms:date:/(a/', 14, 'Invalid regular expression: missing closing ): (a'],
    ['dcterms:date:/ab[z-a]/', 17, 'Invalid regular expression: invalid character class range: z-a'],
    ['dcterms:date:/x(?=y)/', 15, 'invalid or unsupported Perl syntax'],
    ['dcterms:date:/ab{2,1}/', 16, 'invalid repeat count: {2,1}'],
    ['dcterms:date:/(?:a{100}){100}/', 18, 'invalid repeat count'],
    [`dcterms:date:/${'a'.repeat(MAX_REGEX_LENGTH + 1)}/`, 14, `at most ${MAX_REGEX_LENGTH} characters`],
  ])('%j fails at %i: %s', (q, position, fragment) => {
    const error = failure(q);
    expect(error.message).toContain(fragment);
    expect(error.position).toBe(position);
  });

  it('names the known prefixes when one is unknown', () => {
    expect(failure('dc:title:x').message).toBe(
      "Unknown prefix dc (the view's schemas define dcterms, pcdm, type); to search for text with a colon, put it in quotes",
    );
    expect(parseQuery.bind(null, 'dc:title:x', () => undefined, { prefixes: [] })).toThrow(
      'Unknown prefix dc (the view has no schemas)',
    );
  });

  it('refuses too long a query at the limit, and too many terms at the first one past it', () => {
    expect(failure('a'.repeat(MAX_QUERY_LENGTH + 1))).toEqual({
      message: `The query is longer than ${MAX_QUERY_LENGTH} characters; shorten it`,
      position: MAX_QUERY_LENGTH,
    });
    const words = Array.from({ length: MAX_TERMS + 1 }, (_, i) => `w${i}`);
    const past = words.slice(0, MAX_TERMS).join(' ').length + 1;
    expect(failure(words.join(' '))).toEqual({
      message: `The query has more than ${MAX_TERMS} terms; narrow it`,
      position: past,
    });
  });

  it('lets a quoted phrase hold what an unquoted word may not', () => {
    expect(parse('"http://example.org 10:30 /a/ -x *"')).toEqual([
      { kind: 'PHRASE', text: 'http://example.org 10:30 /a/ -x *', predicate: null, negated: false },
    ]);
  });
});
