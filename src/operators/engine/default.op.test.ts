import { describe, expect, it } from 'vitest';
import type { ValueOperator } from '../operator.js';
import { applyDefault } from './default.op.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';

const op: ValueOperator = { id: 2, type: 'DEFAULT_OP', name: 'Default lang', field: 'language', value: 'en' };

describe('DEFAULT_OP', () => {
  it.each<[string, MappingDocument, MappingDocument]>([
    ['sets an absent field', { title: ['T'] }, { title: ['T'], language: ['en'] }],
    ['sets an empty list', { language: [] }, { language: ['en'] }],
    ['keeps a present value', { language: ['fr'] }, { language: ['fr'] }],
    ['keeps every value of a multi-valued field', { language: ['fr', 'de'] }, { language: ['fr', 'de'] }],
    ['keeps an empty-string value (the list is not empty)', { language: [''] }, { language: [''] }],
    ['does not treat inherited members as present', {}, { language: ['en'] }],
  ])('%s', (_label, input, expected) => {
    const snapshot = structuredClone(input);
    expect(withAnswer(input, op.field, applyDefault(input, op))).toEqual(expected);
    expect(input).toEqual(snapshot);
  });
});
