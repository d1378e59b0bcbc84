import { describe, expect, it } from 'vitest';
import { parseLedgerTriple } from './n-triples';

const S = 'http://localhost/rest/a';
const TITLE = 'http://purl.org/dc/terms/title';

describe('parseLedgerTriple', () => {
  it('reads a literal object as the API writes it (quotes, language, datatype kept)', () => {
    expect(parseLedgerTriple(`<${S}> <${TITLE}> "A \\"quoted\\" title"@en .`)).toEqual({
      subject: S,
      predicate: TITLE,
      object: '"A \\"quoted\\" title"@en',
    });
    expect(
      parseLedgerTriple(`<${S}> <${TITLE}> "5"^^<http://www.w3.org/2001/XMLSchema#integer> .`)?.object,
    ).toBe('"5"^^<http://www.w3.org/2001/XMLSchema#integer>');
  });

  it('reads an IRI object bare and keeps blank nodes', () => {
    expect(parseLedgerTriple(`<${S}> <${TITLE}> <http://example.org/x> .`)?.object).toBe(
      'http://example.org/x',
    );
    expect(parseLedgerTriple(`_:b0 <${TITLE}> _:b1 .`)).toEqual({
      subject: '_:b0',
      predicate: TITLE,
      object: '_:b1',
    });
  });

  it('keeps a literal holding " . " or a line break whole', () => {
    expect(parseLedgerTriple(`<${S}> <${TITLE}> "one . two\\nthree" .`)?.object).toBe('"one . two\\nthree"');
  });

  it('answers undefined for what is not a triple', () => {
    expect(parseLedgerTriple('not a triple')).toBeUndefined();
    expect(parseLedgerTriple(`<${S}> "literal predicate" "x" .`)).toBeUndefined();
  });
});
