import { describe, expect, it } from 'vitest';
import { dispositionFilename, formatDisposition, MalformedDispositionError } from './content-disposition.js';

describe('formatDisposition', () => {
  it('writes an ASCII fallback and filename* for other names', () => {
    expect(formatDisposition('report.pdf')).toBe('attachment; filename="report.pdf"');
    expect(formatDisposition('naïve.txt')).toBe(
      `attachment; filename="na_ve.txt"; filename*=UTF-8''na%C3%AFve.txt`,
    );
    expect(formatDisposition('€.txt')).toBe(`attachment; filename="_.txt"; filename*=UTF-8''%E2%82%AC.txt`);
    expect(formatDisposition('a\r\nb.txt')).toBe('attachment; filename="ab.txt"');
  });

  it('writes inline and extra parameters, with or without a name', () => {
    expect(formatDisposition('a.png', { type: 'inline', extra: { size: 3 } })).toBe(
      'inline; filename="a.png"; size=3',
    );
    expect(formatDisposition(undefined, { extra: { size: 0 } })).toBe('attachment; size=0');
  });
});

describe('dispositionFilename', () => {
  it('prefers filename* and unquotes', () => {
    expect(dispositionFilename(`attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt; filename="x"`)).toBe(
      'résumé.txt',
    );
    expect(dispositionFilename('attachment; filename="a \\"b\\".txt"; size=3')).toBe('a "b".txt');
    expect(dispositionFilename('inline; filename=plain.txt')).toBe('plain.txt');
    expect(dispositionFilename('attachment')).toBeUndefined();
    expect(dispositionFilename(undefined)).toBeUndefined();
  });

  it('is lenient by default: an unreadable header has no filename, nothing thrown', () => {
    expect(dispositionFilename('garbage;;')).toBeUndefined();
    expect(dispositionFilename(`attachment; filename*=UTF-8''%ZZ`)).toBeUndefined();
    expect(dispositionFilename('')).toBeUndefined();
  });

  it('throws MalformedDispositionError when strict', () => {
    expect(() => dispositionFilename(`attachment; filename*=UTF-8''%ZZ`, { strict: true })).toThrow(
      MalformedDispositionError,
    );
    expect(dispositionFilename('attachment; filename="ok.txt"', { strict: true })).toBe('ok.txt');
  });
});
