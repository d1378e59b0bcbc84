import { describe, expect, it } from 'vitest';
import { checkReplacement, compileRegex } from './regex.js';

function compiled(source: string) {
  const result = compileRegex(source);
  if (!result.ok) throw new Error(result.reason);
  return result.regex;
}

describe('compileRegex', () => {
  it.each([
    '^',
    '\\d+',
    '(\\w+)@(\\w+)',
    '(?<year>\\d{4})-(\\d{2})',
    'a/b',
    '\\u{1F600}',
    '(a+)+$',
    '[é☕]',
    '(?i)abc',
  ])('accepts %j', (source) => {
    expect(compileRegex(source).ok).toBe(true);
  });

  it.each([
    ['[', 'missing closing ]'],
    ['(', 'missing closing )'],
    ['(?=x)', 'unsupported'],
    ['(a)\\1', 'invalid escape'],
    ['a{1001}', 'invalid repeat count'],
    ['*', 'missing argument'],
  ])('refuses %j with a reason', (source, reason) => {
    const result = compileRegex(source);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it('matches (a+)+$ against 100 000 characters in linear time', () => {
    const input = `${'a'.repeat(100_000)}b`;
    // Exponential backtracking would not finish within the test's timeout at all: finishing is the check.
    const replaced = compiled('(a+)+$').matcher(input).replaceAll('X');
    expect(replaced).toBe(input);
  });

  it('translates ECMAScript named groups', () => {
    expect(compiled('(?<y>\\d{4})').namedGroups()).toEqual({ y: 1 });
  });
});

describe('checkReplacement', () => {
  it.each([
    ['(a)(b)', '$2$1'],
    ['(a)(b)', '$02'],
    ['(a)', '$10'],
    ['x', '$$1'],
    ['x', "[$&] $` $'"],
    ['x', 'cost: $'],
    ['x', '$x'],
    ['x', '$<name>'],
    ['(?<n>x)', '$<n>'],
    ['(?<n>x)', '$<n'],
    ['x', 'plain'],
  ])('accepts regex %j with its replacement (case %#)', (regex, replacement) => {
    expect(checkReplacement(compiled(regex), replacement)).toBeUndefined();
  });

  it.each([
    ['x', '$1', 'No group 1'],
    ['(a)(b)', '$3', 'No group 3'],
    ['(a)', '$0', 'No group 0'],
    ['(a)', '$$$2', 'No group 2'],
    ['(?<n>x)', '$<m>', 'No group named <m>'],
  ])('refuses regex %j with its replacement (case %#)', (regex, replacement, message) => {
    expect(checkReplacement(compiled(regex), replacement)).toContain(message);
  });
});

describe('compileRegex memo', () => {
  it('hands out the same compiled object for the same source, and keeps a bounded number', () => {
    const first = compileRegex('(\\d{4})-(\\d{2})');
    expect(compileRegex('(\\d{4})-(\\d{2})')).toBe(first);
    expect(compileRegex('[')).toBe(compileRegex('['));
    for (let i = 0; i < compileRegex.cache.max + 10; i++) compileRegex(`a{${i % 1000}}b${i}`);
    expect(compileRegex.cache.size).toBe(compileRegex.cache.max);
  });

  it('gives a shared compiled regex that still matches each input on its own', () => {
    const regex = compiled('(\\w+)@(\\w+)');
    expect(regex.matcher('a@b').replaceAll('$2@$1')).toBe('b@a');
    expect(compiled('(\\w+)@(\\w+)').matcher('x@y, c@d').replaceAll('$2@$1')).toBe('y@x, d@c');
  });
});
