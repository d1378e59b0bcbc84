import { describe, expect, it } from 'vitest';
import { tzName, tzOffset } from '@date-fns/tz';
import { canonicalTimeZone, isValidTimeZone, offsetMillis, zoneName } from './time-zone.js';

describe('isValidTimeZone', () => {
  it.each([
    ['UTC', true],
    ['utc', true],
    ['America/Chicago', true],
    ['Etc/GMT+5', true],
    ['Nope/Zone', false],
    ['', false],
    ['+05:00', false],
  ])('%j → %s, the same answer when asked again', (zone, valid) => {
    expect(isValidTimeZone(zone)).toBe(valid);
    expect(isValidTimeZone(zone)).toBe(valid);
  });

  it('remembers a bounded number of names', () => {
    for (let i = 0; i < canonicalTimeZone.cache.max + 10; i++) isValidTimeZone(`Nowhere/Zone${i}`);
    expect(canonicalTimeZone.cache.size).toBe(canonicalTimeZone.cache.max);
  });
});

describe('offsetMillis', () => {
  const instants = [0, Date.UTC(2020, 2, 8, 8), Date.UTC(2020, 10, 1, 7), -5e12, 8.64e15, 8.64e15 + 1, NaN];
  it.each(['UTC', 'utc', 'Etc/UTC', 'GMT', 'America/Chicago', 'Asia/Kathmandu', 'Nope/Zone'])(
    'answers for %s what tzOffset of @date-fns/tz answers, in milliseconds',
    (zone) => {
      for (const instant of instants) {
        expect(offsetMillis(zone, instant)).toBe(Math.round(tzOffset(zone, new Date(instant)) * 60_000));
      }
    },
  );
});

describe('zoneName', () => {
  const instants = [new Date('2020-01-15T12:00:00Z'), new Date('2020-07-15T12:00:00Z')];
  it.each(['UTC', 'America/Chicago', 'Europe/Paris', 'Asia/Kolkata', 'Australia/Lord_Howe'])(
    'names %s as tzName of @date-fns/tz does',
    (zone) => {
      for (const instant of instants) {
        expect(zoneName(zone, instant, false)).toBe(tzName(zone, instant, 'short'));
        expect(zoneName(zone, instant, true)).toBe(tzName(zone, instant, 'long'));
      }
    },
  );
});
