import { tzName } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { isValidTimeZone, zoneName } from './time-zone.js';

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
    for (let i = 0; i < isValidTimeZone.cache.capacity + 10; i++) isValidTimeZone(`Nowhere/Zone${i}`);
    expect(isValidTimeZone.cache.size).toBe(isValidTimeZone.cache.capacity);
  });
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
