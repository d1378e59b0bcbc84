import { describe, expect, it } from 'vitest';
import type { ValueOperator } from '../operator.js';
import { applyConstant } from './constant.op.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';

const op: ValueOperator = { id: 1, type: 'CONSTANT_OP', name: 'Set rights', field: 'rights', value: 'CC-BY' };

describe('CONSTANT_OP', () => {
  it.each<[string, MappingDocument, MappingDocument]>([
    ['creates an absent field', { title: ['T'] }, { title: ['T'], rights: ['CC-BY'] }],
    ['overwrites a single value', { rights: ['old'] }, { rights: ['CC-BY'] }],
    ['overwrites a multi-valued field with one value', { rights: ['a', 'b', 'c'] }, { rights: ['CC-BY'] }],
    ['fills an empty list', { rights: [] }, { rights: ['CC-BY'] }],
  ])('%s', (_label, input, expected) => {
    const snapshot = structuredClone(input);
    expect(withAnswer(input, op.field, applyConstant(input, op))).toEqual(expected);
    expect(input).toEqual(snapshot);
  });

  it('treats inherited member names as ordinary absent keys', () => {
    const result = withAnswer({}, 'toString', applyConstant({}, { ...op, field: 'toString' }));
    expect(Object.entries(result)).toEqual([['toString', ['CC-BY']]]);
  });
});
