import { describe, expect, it } from 'vitest';
import type { FieldOnlyOperator } from '../operator.js';
import { applyBase64Encode } from './base64-encode.op.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';

const op: FieldOnlyOperator = { id: 4, type: 'BASE_64_ENCODE_OP', name: 'Encode id', field: 'id' };

describe('BASE_64_ENCODE_OP', () => {
  it.each<[string, MappingDocument, MappingDocument]>([
    ['encodes ASCII with no padding needed', { id: ['abc'] }, { id: ['YWJj'] }],
    ['pads with one =', { id: ['ab'] }, { id: ['YWI='] }],
    ['pads with two =', { id: ['a'] }, { id: ['YQ=='] }],
    ['encodes the empty string', { id: [''] }, { id: [''] }],
    [
      'encodes UTF-8 bytes of accents, BMP and astral symbols',
      { id: ['café ☕ 𝄞'] },
      { id: ['Y2Fmw6kg4piVIPCdhJ4='] },
    ],
    ['encodes every value of a multi-valued field', { id: ['a', 'ab'] }, { id: ['YQ==', 'YWI='] }],
    ['uses the standard alphabet (+ and /, not - and _)', { id: ['?>?', '~~~'] }, { id: ['Pz4/', 'fn5+'] }],
    ['keeps an empty list', { id: [] }, { id: [] }],
    ['is a no-op on an absent field', { title: ['x'] }, { title: ['x'] }],
  ])('%s', (_label, input, expected) => {
    expect(withAnswer(input, op.field, applyBase64Encode(input, op))).toEqual(expected);
  });

  it('agrees with an independent UTF-8 encoding', () => {
    const text = 'café ☕ 𝄞';
    const independent = Buffer.from(new TextEncoder().encode(text)).toString('base64');
    expect(applyBase64Encode({ id: [text] }, op)).toEqual([independent]);
    expect(Buffer.from(independent, 'base64').toString('utf8')).toBe(text);
  });

  it('never inserts line breaks in long output', () => {
    const [encoded] = applyBase64Encode({ id: ['x'.repeat(1000)] }, op) ?? [];
    expect(encoded).toHaveLength(1336);
    expect(encoded).not.toMatch(/\s/);
  });
});
