import { describe, expect, it } from 'vitest';
import type { RegexReplaceOperator } from '../operator.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';
import { applyRegexReplace } from './regex-replace.op.js';

function op(regex: string, value: string): RegexReplaceOperator {
  return { id: 7, type: 'REGEX_REPLACE_OP', name: 'Fix', field: 'f', regex, value };
}

describe('REGEX_REPLACE_OP', () => {
  it.each<[string, string, string, MappingDocument, MappingDocument]>([
    ['replaces every match', 'o', '0', { f: ['foo boo'] }, { f: ['f00 b00'] }],
    ['swaps $1 and $2 groups', '(\\w+), (\\w+)', '$2 $1', { f: ['Doe, Jane'] }, { f: ['Jane Doe'] }],
    ['reads $10 as group 1 then 0 with one group', '(\\d)', '$10', { f: ['a1b2'] }, { f: ['a10b20'] }],
    ['uses named groups', '(?<y>\\d{4})-(?<m>\\d{2})', '$<m>/$<y>', { f: ['2020-03'] }, { f: ['03/2020'] }],
    ['inserts the whole match with $&', '\\d+', '[$&]', { f: ['a12b3'] }, { f: ['a[12]b[3]'] }],
    ['escapes a literal $ as $$', '\\d+', '$$$&', { f: ['cost 5'] }, { f: ['cost $5'] }],
    ['treats a backslash as literal', 'x', '\\$', { f: ['x'] }, { f: ['\\$'] }],
    ['anchors with ^', '^', 'pre-', { f: ['a', 'b'] }, { f: ['pre-a', 'pre-b'] }],
    ['handles empty matches like String.prototype.replace', 'x*', '-', { f: ['abc'] }, { f: ['-a-b-c-'] }],
    [
      'processes each value of a multi-valued field',
      '\\s+',
      ' ',
      { f: ['a  b', 'c\td'] },
      { f: ['a b', 'c d'] },
    ],
    ['handles unicode', 'é', 'e', { f: ['café ☕ 𝄞'] }, { f: ['cafe ☕ 𝄞'] }],
    ['keeps an empty list', 'a', 'b', { f: [] }, { f: [] }],
    ['is a no-op on an absent field', 'a', 'b', { g: ['a'] }, { g: ['a'] }],
  ])('%s', (_label, regex, value, input, expected) => {
    const snapshot = structuredClone(input);
    expect(withAnswer(input, 'f', applyRegexReplace(input, op(regex, value)))).toEqual(expected);
    expect(input).toEqual(snapshot);
  });

  it.each([
    ['(unclosed', 'xx', 'Invalid regex: error parsing regexp: missing closing )'],
    ['(?=look)', 'xx', 'Invalid regex'],
    ['(\\w+)', '$2', 'No group 2'],
    ['\\w+', '$1', 'No group 1'],
  ])(
    'throws for regex %j with its replacement (case %#), even on an absent field',
    (regex, value, message) => {
      expect(() => applyRegexReplace({ f: ['abc'] }, op(regex, value))).toThrow(message);
      expect(() => applyRegexReplace({}, op(regex, value))).toThrow(message);
    },
  );

  it('finishes (a+)+$ on a 100 000-character aaaa…b input promptly', () => {
    const input = `${'a'.repeat(100_000)}b`;
    // Exponential backtracking would not finish within the test's timeout at all: finishing is the check.
    const result = applyRegexReplace({ f: [input, 'aaa'] }, op('(a+)+$', '<$1>'));
    expect(result).toEqual([input, '<aaa>']);
  });
});
