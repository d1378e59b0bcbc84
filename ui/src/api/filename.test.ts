import { describe, expect, it } from 'vitest';
import { filenameOf } from './filename';

describe('filenameOf', () => {
  it('reads filename* first, then filename, else download', () => {
    expect(filenameOf(`attachment; filename="a.txt"; filename*=UTF-8''caf%C3%A9.txt`)).toBe('café.txt');
    expect(filenameOf('attachment; filename="scan.pdf"')).toBe('scan.pdf');
    expect(filenameOf('attachment')).toBe('download');
    expect(filenameOf(null)).toBe('download');
  });

  it('answers the fallback it is given when the header names no file', () => {
    expect(filenameOf(null, 'export.csv')).toBe('export.csv');
    expect(filenameOf('attachment', 'export.csv')).toBe('export.csv');
    expect(filenameOf('attachment; filename="sheet.csv"', 'export.csv')).toBe('sheet.csv');
  });
});
