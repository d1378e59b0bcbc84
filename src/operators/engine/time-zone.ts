import { tzOffset } from '@date-fns/tz';
import { LRUCache } from 'lru-cache';
import { memoize } from '../../shared/memoize.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Zone names come from requests: the memos below keep this many, whatever clients send. */
const ZONE_CACHE_SIZE = 256;

/**
 * The runtime's canonical name of `timeZone` (`utc`, `Etc/UTC`, `GMT` → `UTC`), or null for a zone its
 * Intl data does not know. Memoized: building an `Intl.DateTimeFormat` to find out costs far more than
 * the lookup.
 */
export const canonicalTimeZone = memoize((timeZone: string): string | null => {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}, ZONE_CACHE_SIZE);

/** Whether `timeZone` is a zone the runtime's Intl data knows (IANA names such as `America/Chicago`, `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  return (canonicalTimeZone(timeZone)?.length ?? 0) > 0;
}

/** Offset from UTC, in whole milliseconds, of `timeZone` at `instantMs` (NaN for an unknown zone). */
export function offsetMillis(timeZone: string, instantMs: number): number {
  const instant = new Date(instantMs);
  // UTC (the default zone) has no transitions: skip formatting the instant to read its offset.
  if (canonicalTimeZone(timeZone) === 'UTC' && !Number.isNaN(instant.getTime())) return 0;
  return Math.round(tzOffset(timeZone, instant) * MINUTE);
}

const zoneNameFormats = new LRUCache<string, Intl.DateTimeFormat>({ max: ZONE_CACHE_SIZE });

/**
 * Short (`CDT`, `UTC`) or long (`Central Daylight Time`) display name of the zone at `instant`: what
 * `tzName` of @date-fns/tz answers, with its `Intl.DateTimeFormat` kept per zone and length.
 */
export function zoneName(timeZone: string, instant: Date, long: boolean): string {
  const style = long ? 'long' : 'short';
  const key = `${style} ${timeZone}`;
  let format = zoneNameFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { hour: 'numeric', timeZone, timeZoneName: style });
    zoneNameFormats.set(key, format);
  }
  // "3 PM CDT": skip the hour and the AM/PM parts (Intl may separate them with non-breaking spaces).
  return format.format(instant).split(/\s/g).slice(2).join(' ');
}

/**
 * The instant at which clocks in `timeZone` show `wallMs` (a wall time encoded as if it were UTC).
 * Ambiguous and skipped wall times follow Temporal's "compatible" rule, which is also what Java's lenient
 * calendar does for gaps: in a fall-back overlap the earlier instant wins; a time skipped by a spring-forward
 * gap is moved forward by the length of the gap (02:30 on a 1-hour gap reads as 03:30 daylight time).
 */
export function wallTimeToInstant(wallMs: number, timeZone: string): number {
  // Offsets a day either side bracket any single transition near the wall time.
  const before = offsetMillis(timeZone, wallMs - DAY);
  const after = offsetMillis(timeZone, wallMs + DAY);
  const candidates = [wallMs - before, wallMs - after].filter(
    (instant) => offsetMillis(timeZone, instant) === wallMs - instant,
  );
  return candidates.length > 0 ? Math.min(...candidates) : wallMs - before;
}
