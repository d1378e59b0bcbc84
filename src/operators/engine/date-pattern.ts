import { memoize } from '../../shared/memoize.js';
import { isValidTimeZone, offsetMillis, zoneName } from './time-zone.js';

export { parseDateInput } from './date-input.js';

/**
 * The DATE_NORMALIZATION output patterns SAGE's validator accepts (sage-operators.md §3.5), minus its bug:
 * the validator's character classes also admitted `|` as fraction separator or zone letter; we do not.
 */
const VALID_PATTERN =
  /^(?:yyyy-MM-dd(?:'T'| )HH:mm(?::ss(?:[.,]SSS)?)?(?:z|Z|ZZ)?|yyyy-MM-dd|yyyy-MM|yyyy|MM\/dd\/yyyy)$/;

/** Whether `pattern` is one of the accepted Java SimpleDateFormat output patterns (save-time check). */
export function isValidDatePattern(pattern: string): boolean {
  return VALID_PATTERN.test(pattern);
}

/** A compiled pattern: renders an instant as seen in a time zone. */
export type DateFormatter = (instant: Date, timeZone: string) => string;

type Field = (wall: Date, instant: Date, timeZone: string) => string;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** RFC 822 offset as Java's `Z` prints it: sign, hours, minutes, no colon (`-0500`, `+0000`). */
function rfc822(offsetMs: number): string {
  const minutes = Math.trunc(Math.abs(offsetMs) / 60_000);
  return `${offsetMs < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60), 2)}${pad(minutes % 60, 2)}`;
}

/** The field printer for a run of `count` copies of pattern letter `letter` (Java SimpleDateFormat rules). */
function letterField(letter: string, count: number): Field {
  switch (letter) {
    case 'y':
      return (w) => (count === 2 ? pad(w.getUTCFullYear() % 100, 2) : pad(w.getUTCFullYear(), count));
    case 'M':
      if (count > 2) break; // month names are outside the accepted patterns
      return (w) => pad(w.getUTCMonth() + 1, count);
    case 'd':
      return (w) => pad(w.getUTCDate(), count);
    case 'H':
      return (w) => pad(w.getUTCHours(), count);
    case 'm':
      return (w) => pad(w.getUTCMinutes(), count);
    case 's':
      return (w) => pad(w.getUTCSeconds(), count);
    case 'S':
      return (w) => pad(w.getUTCMilliseconds(), count);
    case 'Z':
      return (_w, instant, zone) => rfc822(offsetMillis(zone, instant.getTime()));
    case 'z':
      return (_w, instant, zone) => zoneName(zone, instant, count >= 4);
  }
  throw new Error(`Unsupported date pattern letter "${letter.repeat(count)}"`);
}

/** Splits a Java pattern into printers: letter runs, `'quoted'` literals (`''` is a quote), other text. */
function tokenize(pattern: string): Field[] {
  const fields: Field[] = [];
  let i = 0;
  while (i < pattern.length) {
    const char = pattern.charAt(i);
    let end = i + 1;
    if (char === "'") {
      let text = '';
      for (;;) {
        if (end >= pattern.length) throw new Error(`Unterminated quote in date pattern "${pattern}"`);
        if (pattern[end] === "'" && pattern[end + 1] !== "'") break;
        if (pattern[end] === "'") end++;
        text += pattern.charAt(end++);
      }
      end++;
      const literal = end === i + 2 ? "'" : text;
      fields.push(() => literal);
    } else if (/[A-Za-z]/.test(char)) {
      while (pattern[end] === char) end++;
      fields.push(letterField(char, end - i));
    } else {
      fields.push(() => char);
    }
    i = end;
  }
  return fields;
}

/** Distinct patterns kept compiled (the accepted ones are few; this bounds anything else). */
const PATTERN_CACHE_SIZE = 128;

/**
 * Compiles a SimpleDateFormat pattern once (letters y M d H m s S z Z, quotes, literal text), throwing on a
 * letter outside that set. A hand-written printer rather than date-fns `format`, whose `Z`/`z` tokens do not
 * mean what Java's do. Wall-clock fields come from the zone's offset at the instant.
 *
 * Memoized per pattern: the same pattern gives the same (stateless) formatter; a pattern that does not
 * compile throws every time and is not kept.
 */
export const compileDatePattern = memoize((pattern: string): DateFormatter => {
  const fields = tokenize(pattern);
  return (instant, timeZone) => {
    if (Number.isNaN(instant.getTime())) throw new Error('Cannot format an invalid date');
    const offset = offsetMillis(timeZone, instant.getTime());
    if (Number.isNaN(offset)) throw new Error(`Unknown time zone "${timeZone}"`);
    const wall = new Date(instant.getTime() + offset);
    return fields.map((field) => field(wall, instant, timeZone)).join('');
  };
}, PATTERN_CACHE_SIZE);

/** Formats `instant` with Java `SimpleDateFormat` semantics in `timeZone` (`Z` → `-0500`, `z` → `CDT`). */
export function formatDate(instant: Date, pattern: string, timeZone: string): string {
  // Checked here rather than per call of a compiled formatter: building an Intl formatter is not cheap.
  if (!isValidTimeZone(timeZone)) throw new Error(`Unknown time zone "${timeZone}"`);
  return compileDatePattern(pattern)(instant, timeZone);
}
