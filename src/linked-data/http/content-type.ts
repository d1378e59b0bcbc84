import { safeParse } from 'fast-content-type-parse';

/**
 * The media type of a Content-Type header, lower-cased, without parameters ('' when absent).
 * Well-formed headers go through fast-content-type-parse; a malformed one (bad parameters, a type
 * without a subtype) keeps its leading token, so a sloppy client still gets the answer it got before
 * (e.g. 415 naming what it sent) rather than being treated as having sent no type at all.
 */
export function mediaTypeOf(header: string | undefined): string {
  if (header === undefined) return '';
  const parsed = safeParse(header).type;
  if (parsed !== '') return parsed;
  return (header.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * A parameter of a Content-Type header (`charset`, `profile`), unquoted; undefined when absent.
 * Malformed headers fall back to a lenient `;`-split so one bad parameter does not hide the others.
 */
export function mediaTypeParameter(header: string, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const parsed = safeParse(header);
  if (parsed.type !== '') return parsed.parameters[wanted];
  for (const part of header.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim().toLowerCase() === wanted) {
      return part
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
    }
  }
  return undefined;
}
