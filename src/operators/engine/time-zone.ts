import { tzName, tzOffset } from '@date-fns/tz';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Whether `timeZone` is a zone the runtime's Intl data knows (IANA names such as `America/Chicago`, `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone.length > 0;
  } catch {
    return false;
  }
}

/** Offset from UTC, in whole milliseconds, of `timeZone` at `instantMs` (NaN for an unknown zone). */
export function offsetMillis(timeZone: string, instantMs: number): number {
  return Math.round(tzOffset(timeZone, new Date(instantMs)) * MINUTE);
}

/** Short (`CDT`, `UTC`) or long (`Central Daylight Time`) display name of the zone at `instant`. */
export function zoneName(timeZone: string, instant: Date, long: boolean): string {
  return tzName(timeZone, instant, long ? 'long' : 'short');
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
