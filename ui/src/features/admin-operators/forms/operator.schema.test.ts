import { describe, expect, it } from 'vitest';
import {
  formatMapping,
  isBareField,
  operatorFormSchema,
  parseDocument,
  parseMapping,
  tryItSchema,
} from './operator.schema';

describe('operatorFormSchema', () => {
  const base = { type: 'CONSTANT_OP', name: 'Set', field: 'title', value: '', regex: '', mapping: '' };

  it('asks for a type, a name and a field', () => {
    const result = operatorFormSchema.safeParse({ ...base, type: '', name: ' ', field: '' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Choose a type',
      'Enter a name',
      'Enter the field it sets',
    ]);
  });

  it('accepts an empty value (a regex replacement may be empty) and checks the mapping lines', () => {
    expect(operatorFormSchema.safeParse(base).success).toBe(true);
    expect(operatorFormSchema.safeParse({ ...base, mapping: 'no arrow' }).error?.issues[0]?.message).toBe(
      'Write one "from => to" pair a line',
    );
  });
});

describe('mapping text', () => {
  it('reads and writes one pair a line', () => {
    expect(parseMapping('a => b\n\n x=>y=z ')).toEqual({ a: 'b', x: 'y=z' });
    expect(formatMapping({ a: 'b', c: 'd' })).toBe('a => b\nc => d');
    expect(parseMapping('')).toEqual({});
  });
});

describe('tryItSchema', () => {
  it('needs an operator and a JSON object of texts', () => {
    const result = tryItSchema.safeParse({ operators: [], document: '[1]' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Pick at least one operator',
      'Enter a JSON object of field names to a text or a list of texts',
    ]);
    expect(parseDocument('{"title":["A","B"],"date":"2020"}')).toEqual({ title: ['A', 'B'], date: '2020' });
    expect(parseDocument('{"n":1}')).toBeNull();
  });
});

describe('isBareField', () => {
  it.each([
    ['title', true],
    [' title ', true],
    ['dcterms:title', false],
    ['http://purl.org/dc/terms/title', false],
    ['', false],
  ])('%j → %s', (field, bare) => {
    expect(isBareField(field)).toBe(bare);
  });
});
