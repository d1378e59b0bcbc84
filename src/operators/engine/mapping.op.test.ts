import { describe, expect, it } from 'vitest';
import type { MappingOperator } from '../operator.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';
import { applyMapping } from './mapping.op.js';

const op: MappingOperator = {
  id: 3,
  type: 'MAPPING_OP',
  name: 'Map types',
  field: 'type',
  mapping: { article: 'Text', image: 'StillImage', '': 'Unknown' },
};

describe('MAPPING_OP', () => {
  it.each<[string, MappingDocument, MappingDocument]>([
    ['maps a hit', { type: ['article'] }, { type: ['Text'] }],
    ['passes a miss through', { type: ['video'] }, { type: ['video'] }],
    [
      'maps each value of a multi-valued field',
      { type: ['image', 'x', 'article'] },
      { type: ['StillImage', 'x', 'Text'] },
    ],
    ['is case-sensitive', { type: ['Article'] }, { type: ['Article'] }],
    ['matches whole values only', { type: ['article 1', ' article'] }, { type: ['article 1', ' article'] }],
    ['maps the empty-string key', { type: [''] }, { type: ['Unknown'] }],
    [
      'ignores inherited members of the mapping',
      { type: ['toString', 'constructor'] },
      { type: ['toString', 'constructor'] },
    ],
    ['keeps an empty list', { type: [] }, { type: [] }],
    ['is a no-op on an absent field', { title: ['article'] }, { title: ['article'] }],
  ])('%s', (_label, input, expected) => {
    const snapshot = structuredClone(input);
    expect(withAnswer(input, op.field, applyMapping(input, op))).toEqual(expected);
    expect(input).toEqual(snapshot);
  });

  it('is a no-op with an empty mapping', () => {
    expect(applyMapping({ type: ['article'] }, { ...op, mapping: {} })).toEqual(['article']);
  });
});
