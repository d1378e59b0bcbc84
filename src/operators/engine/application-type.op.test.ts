import { describe, expect, it } from 'vitest';
import type { FieldOnlyOperator } from '../operator.js';
import { APPLICATION_TYPE_MISSING, applyApplicationType } from './application-type.op.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';

const op: FieldOnlyOperator = { id: 5, type: 'APPLICATION_TYPE_OP', name: 'App type', field: 'source_type' };

describe('APPLICATION_TYPE_OP', () => {
  it.each<[string, MappingDocument, string, MappingDocument]>([
    ['creates an absent field', { title: ['T'] }, 'fedora', { title: ['T'], source_type: ['fedora'] }],
    ['overwrites a multi-valued field', { source_type: ['a', 'b'] }, 'dspace', { source_type: ['dspace'] }],
    ['fills an empty list', { source_type: [] }, 'unspecified', { source_type: ['unspecified'] }],
  ])('%s', (_label, input, applicationType, expected) => {
    expect(
      withAnswer(input, op.field, applyApplicationType(input, op, { timeZone: 'UTC', applicationType })),
    ).toEqual(expected);
  });

  it.each([{ timeZone: 'UTC' }, { timeZone: 'UTC', applicationType: undefined }])(
    'throws without an application type (%o)',
    (context) => {
      expect(() => applyApplicationType({}, op, context)).toThrow(APPLICATION_TYPE_MISSING);
    },
  );

  it('has the documented message', () => {
    expect(APPLICATION_TYPE_MISSING).toBe(
      'APPLICATION_TYPE_OP needs a repositoryViewId naming an existing repository view',
    );
  });
});
