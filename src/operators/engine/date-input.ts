import { wallTimeToInstant } from './time-zone.js';

/**
 * Strict reader for the DATE_NORMALIZATION input formats of sage-operators.md §3.6. Unlike SAGE's lenient
 * commons-lang parsing there is no rollover (`2020-02-30` and `25:00` are rejected, not moved on), the year is
 * exactly four digits (0001–9999), and fractions of a second are exactly three digits (`SSS`).
 */
const DATE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:[.,](\d{3}))?)?(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/;
const DATE = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})?$/;

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
}

function toNumber(digits: string | undefined): number {
  return digits === undefined ? 0 : Number(digits);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isValidWallTime(t: WallTime): boolean {
  return (
    t.year >= 1 &&
    t.month >= 1 &&
    t.month <= 12 &&
    t.day >= 1 &&
    t.day <= daysInMonth(t.year, t.month) &&
    t.hour <= 23 &&
    t.minute <= 59 &&
    t.second <= 59
  );
}

/** The wall time encoded as UTC milliseconds; setUTCFullYear, because Date.UTC maps years 0–99 to 19xx. */
function wallMillis(t: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(t.year, t.month - 1, t.day);
  date.setUTCHours(t.hour, t.minute, t.second, t.millis);
  return date.getTime();
}

/** Zone suffix → offset in ms: `Z`, `UTC`, `GMT` are zero; `+hh`, `+hhmm`, `+hh:mm` up to 23:59. */
function suffixOffset(suffix: string): number | undefined {
  if (suffix === 'Z' || suffix === 'UTC' || suffix === 'GMT') return 0;
  const match = OFFSET.exec(suffix);
  if (match === null) return undefined;
  const hours = toNumber(match[2]);
  const minutes = toNumber(match[3]);
  if (hours > 23 || minutes > 59) return undefined;
  return (match[1] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/**
 * The wall time a value spells, and its zone suffix. Objects are written whole rather than spread and
 * extended (`{ ...wall, minute }`): V8 (Node 20) takes a slow path for that, about 3 µs per object, more
 * than all the rest of a date's parsing.
 */
function readWallTime(text: string): { wall: WallTime; zone?: string | undefined } | undefined {
  const dateTime = DATE_TIME.exec(text);
  if (dateTime !== null) {
    const [, y, mo, d, h, mi, s, ms, zone] = dateTime;
    const wall = {
      year: toNumber(y),
      month: toNumber(mo),
      day: toNumber(d),
      hour: toNumber(h),
      minute: toNumber(mi),
      second: toNumber(s),
      millis: toNumber(ms),
    };
    return { wall, zone };
  }
  const date = DATE.exec(text);
  const us = date === null ? US_DATE.exec(text) : null;
  const [year, month, day] = date !== null ? [date[1], date[2], date[3]] : [us?.[3], us?.[1], us?.[2]];
  if (year === undefined) return undefined;
  // A missing month or day means the first one, as Java reads `yyyy-MM` and `yyyy`.
  const wall = {
    year: toNumber(year),
    month: toNumber(month ?? '1'),
    day: toNumber(day ?? '1'),
    hour: 0,
    minute: 0,
    second: 0,
    millis: 0,
  };
  return { wall };
}

/**
 * Parses one input value (surrounding whitespace ignored) into an instant, or `undefined` when it matches no
 * accepted format or names an impossible date or time. Wall times without a zone suffix are read in
 * `timeZone` (an IANA name); an unknown zone yields `undefined`.
 */
export function parseDateInput(text: string, timeZone: string): Date | undefined {
  const read = readWallTime(text.trim());
  if (read === undefined || !isValidWallTime(read.wall)) return undefined;
  const wallMs = wallMillis(read.wall);
  if (read.zone === undefined) {
    const instant = wallTimeToInstant(wallMs, timeZone);
    return Number.isNaN(instant) ? undefined : new Date(instant);
  }
  const offset = suffixOffset(read.zone);
  return offset === undefined ? undefined : new Date(wallMs - offset);
}
