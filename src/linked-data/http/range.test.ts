import { describe, expect, it } from 'vitest';
import { parseByteRange } from './range.js';

describe('parseByteRange', () => {
  it('reads one byte range, clamped to the body', () => {
    expect(parseByteRange('bytes=2-5', 10)).toEqual({ start: 2, end: 5 });
    expect(parseByteRange('bytes=7-', 10)).toEqual({ start: 7, end: 9 });
    expect(parseByteRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseByteRange('bytes=5-100', 10)).toEqual({ start: 5, end: 9 });
    expect(parseByteRange(' bytes=0-0 ', 10)).toEqual({ start: 0, end: 0 });
  });

  it('takes a suffix longer than the body as the whole body (RFC 7233 §2.1)', () => {
    expect(parseByteRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
  });

  it('is unsatisfiable past the end, backwards, or an empty suffix', () => {
    expect(parseByteRange('bytes=20-30', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=5-2', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 10)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-', 0)).toBe('unsatisfiable');
  });

  it('ignores (whole body, no throw) what it does not serve or cannot read', () => {
    expect(parseByteRange(undefined, 10)).toBeUndefined();
    expect(parseByteRange('bytes=oops', 10)).toBeUndefined();
    expect(parseByteRange('bytes=-', 10)).toBeUndefined();
    expect(parseByteRange('bytes=', 10)).toBeUndefined();
    expect(parseByteRange('', 10)).toBeUndefined();
    expect(parseByteRange('items=0-1', 10)).toBeUndefined();
    expect(parseByteRange('bytes=0-1,3-4', 10)).toBeUndefined();
  });
});
