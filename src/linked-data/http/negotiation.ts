import Negotiator from 'negotiator';
import { mediaTypeOf, mediaTypeParameter } from './content-type.js';

export interface Negotiated<T extends string> {
  readonly type: T;
  /** The Accept entry that named `type` exactly ('' when a wildcard chose it): its parameters (`profile`). */
  readonly accepted: string;
}

/**
 * Picks the best of `offered` for an Accept header (q-values, wildcards; negotiator ranks them as RFC
 * 7231 §5.3.2 says). Undefined when nothing acceptable is offered (406). No or a blank Accept: the first
 * offered. Parameters other than q (a JSON-LD `profile`) do not restrict the match: they are handed
 * back in `accepted` for the serialiser to honour.
 */
export function negotiateMediaType<T extends string>(
  accept: string | undefined,
  offered: readonly T[],
): Negotiated<T> | undefined {
  const first = offered[0];
  if (accept === undefined || accept.trim() === '')
    return first === undefined ? undefined : { type: first, accepted: '' };
  const entries = (accept.match(/(?:[^,"]|"[^"]*")+/g) ?? [])
    .map((entry) => ({ entry: entry.trim(), type: mediaTypeOf(entry) }))
    .filter(({ type }) => type !== '');
  // Negotiator matches parameters too; offered types have none, so it sees the ranges with q only.
  const ranges = entries.map(({ entry, type }) => `${type};q=${quality(entry)}`).join(', ');
  const chosen = new Negotiator({ headers: { accept: ranges } }).mediaType(offered);
  const type = offered.find((candidate) => candidate === chosen);
  if (type === undefined) return undefined;
  return { type, accepted: entries.find((e) => e.type === type)?.entry ?? '' };
}

/** The q of an Accept entry; an unreadable one counts as 1, as a missing one does. */
function quality(entry: string): string {
  const q = mediaTypeParameter(entry, 'q');
  return q !== undefined && /^[0-9.]+$/.test(q) && !Number.isNaN(Number(q)) ? q : '1';
}
