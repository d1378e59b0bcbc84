import rangeParser from 'range-parser';

/**
 * The single byte range of a Range header (RFC 7233) over a body of `size` bytes. Undefined: serve the
 * whole body (no header, a malformed one, another unit, or several ranges — no multipart/byteranges
 * answers here). 'unsatisfiable': 416.
 */
export function parseByteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (header === undefined || header.includes(',')) return undefined;
  const ranges = rangeParser(size, header.trim());
  if (ranges === -2) return undefined;
  if (ranges === -1) {
    // RFC 7233 §2.1: a suffix longer than the body selects all of it; range-parser refuses it instead.
    const suffix = /^bytes=-(\d+)$/.exec(header.trim())?.[1];
    return suffix !== undefined && Number(suffix) > 0 && size > 0
      ? { start: 0, end: size - 1 }
      : 'unsatisfiable';
  }
  const [range] = ranges;
  if (ranges.type !== 'bytes' || range === undefined) return undefined;
  return { start: range.start, end: range.end };
}
