import { describe, expect, it } from 'vitest';
import { changeLabel, isNewChild } from './change-label';

const IRI = 'http://localhost:8080/rest/records/r12';

describe('changeLabel', () => {
  it('names a change without a row by its resource', () => {
    expect(changeLabel({ contextUri: IRI, row: null })).toEqual({
      row: null,
      subject: IRI,
      failure: 'This resource cannot be mapped',
    });
  });

  it('puts the sheet row beside a spreadsheet change and its failure', () => {
    expect(changeLabel({ contextUri: IRI, row: 12 })).toEqual({
      row: 'Row 12',
      subject: IRI,
      failure: 'Row 12 cannot be imported',
    });
  });

  it('names a + row a new child with its row, whether the API says + or +N', () => {
    for (const contextUri of ['+', '+7'])
      expect(changeLabel({ contextUri, row: 7 })).toEqual({
        row: null,
        subject: 'New child (row 7)',
        failure: 'Row 7 cannot be imported',
      });
  });

  it('tells a + key from an IRI', () => {
    expect(isNewChild('+')).toBe(true);
    expect(isNewChild('+12')).toBe(true);
    expect(isNewChild('+x')).toBe(false);
    expect(isNewChild(IRI)).toBe(false);
  });
});
