import { describe, expect, it } from 'vitest';
import { cronProblem, isTimeZone, latestDue, nextDue } from './cron-plan.js';

describe('cron plans', () => {
  const daily = { cron: '30 2 * * *', timeZone: 'Europe/Berlin' };

  it('reads due times in the time zone, across a daylight-saving change', () => {
    // 02:30 in Berlin: 00:30 UTC in summer (CEST), 01:30 UTC in winter (CET).
    expect(nextDue(daily, Date.UTC(2026, 6, 1, 12))).toBe(Date.UTC(2026, 6, 2, 0, 30));
    expect(nextDue(daily, Date.UTC(2026, 11, 1, 12))).toBe(Date.UTC(2026, 11, 2, 1, 30));
  });

  it('answers the latest due time at or before a moment, the moment itself included', () => {
    const minutely = { cron: '* * * * *', timeZone: 'UTC' };
    const minute = Date.UTC(2026, 0, 1, 10, 5);
    expect(latestDue(minutely, minute)).toBe(minute);
    expect(latestDue(minutely, minute + 59_999)).toBe(minute);
    expect(latestDue(minutely, minute - 1)).toBe(minute - 60_000);
    expect(latestDue(daily, Date.UTC(2026, 6, 2, 0, 29))).toBe(Date.UTC(2026, 6, 1, 0, 30));
  });

  it('takes five fields only, saying so', () => {
    expect(cronProblem('0 3 * * 1-5')).toBeUndefined();
    for (const cron of ['* * * *', '0 0 3 * * *', '61 * * * *', '', 'every day'])
      expect(cronProblem(cron)).toMatch(
        /^A schedule's cron must be five fields .*minute granularity; ".*" is not \(.+\)$/,
      );
  });

  it('knows IANA time zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
