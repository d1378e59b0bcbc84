import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { sheetProblems } from './sheet-problems';

const ROW_7 = 'Row 7, column dcterms:title[en]: the quoted value is not terminated';

describe('sheetProblems', () => {
  it('answers the envelope message once when the validation results repeat it', () => {
    const error = new ApiError(200, 'INVALID', ROW_7, { spreadsheet: { malformed: ROW_7 } });
    expect(sheetProblems(error)).toEqual([ROW_7]);
  });

  it('leaves out the generic message when the results say more', () => {
    const error = new ApiError(200, 'INVALID', 'Your request failed validation', {
      file: { malformed: ROW_7 },
    });
    expect(sheetProblems(error)).toEqual([ROW_7]);
  });

  it('keeps the generic message when it is all there is, and a specific one beside the results', () => {
    expect(sheetProblems(new ApiError(200, 'INVALID', 'Your request failed validation'))).toEqual([
      'Your request failed validation',
    ]);
    const error = new ApiError(200, 'INVALID', 'The sheet cannot be read.', { file: { row: ROW_7 } });
    expect(sheetProblems(error)).toEqual(['The sheet cannot be read.', ROW_7]);
  });

  it('answers nothing for errors that are not INVALID answers', () => {
    expect(sheetProblems(new ApiError(500, 'ERROR', 'Your request caused an error'))).toEqual([]);
    expect(sheetProblems(new Error('offline'))).toEqual([]);
  });
});
