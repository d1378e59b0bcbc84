import contentDisposition from 'content-disposition';

/**
 * A Content-Disposition value for a download (RFC 6266). Control characters are dropped (they would
 * break the header); a name that is not printable ASCII gets an ASCII fallback (`_` for each other
 * character) in `filename` and the exact name in `filename*`, which the library encodes (RFC 8187).
 * `extra` parameters (the embedded repository's `size`) follow.
 */
export function formatDisposition(
  filename: string | undefined,
  options: { type?: 'attachment' | 'inline'; extra?: Readonly<Record<string, string | number>> } = {},
): string {
  const cleaned = filename?.replace(/\p{Cc}/gu, '');
  const value = contentDisposition(cleaned, {
    type: options.type ?? 'attachment',
    fallback: cleaned?.replace(/[^\x20-\x7e]|["\\]/g, '_') ?? true,
  });
  const extra = Object.entries(options.extra ?? {}).map(([name, v]) => `; ${name}=${v}`);
  return value + extra.join('');
}

/** A Content-Disposition header the library cannot read (e.g. an undecodable `filename*`). */
export class MalformedDispositionError extends Error {
  constructor() {
    super('Malformed Content-Disposition');
    this.name = 'MalformedDispositionError';
  }
}

/**
 * The filename of a Content-Disposition header (`filename*` preferred), if any. Lenient by default: an
 * unreadable header has no filename (what a client wants of servers); `strict` throws
 * MalformedDispositionError instead (what a server wants of its clients).
 */
export function dispositionFilename(
  header: string | undefined,
  options: { strict?: boolean } = {},
): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  try {
    return contentDisposition.parse(header).parameters.filename;
  } catch {
    if (options.strict === true) throw new MalformedDispositionError();
    return undefined;
  }
}
