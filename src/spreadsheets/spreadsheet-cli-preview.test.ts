import { describe, expect, it } from 'vitest';
import { failedRowLine } from './spreadsheet-cli-preview.js';

describe('failedRowLine', () => {
  it('keeps a message that names its row already', () => {
    expect(
      failedRowLine({ row: 7, contextUri: 'http://x/a', error: 'Row 7: http://x/a is not in the view' }),
    ).toBe('Row 7: http://x/a is not in the view');
  });

  it('puts the row number in front of a message without it, on one line', () => {
    expect(
      failedRowLine({ row: 12, contextUri: 'http://x/b', error: 'The resource changed\nsince the export' }),
    ).toBe('Row 12: The resource changed since the export');
  });

  it('names the resource when the change has no row', () => {
    expect(failedRowLine({ row: null, contextUri: 'http://x/c', error: 'could not be read' })).toBe(
      'http://x/c: could not be read',
    );
  });
});
