import { describe, expect, it } from 'vitest';
import { announcementAt, formatRemaining } from './countdown';

describe('the transaction countdown', () => {
  it('shows mm:ss, rounding up, never below zero', () => {
    expect(formatRemaining(179_001)).toBe('03:00');
    expect(formatRemaining(61_000)).toBe('01:01');
    expect(formatRemaining(9_500)).toBe('00:10');
    expect(formatRemaining(-5_000)).toBe('00:00');
  });

  it('speaks only at the thresholds', () => {
    expect(announcementAt(60)).toBe('The transaction expires in 1 minute.');
    expect(announcementAt(120)).toBe('The transaction expires in 2 minutes.');
    expect(announcementAt(30)).toBe('The transaction expires in 30 seconds.');
    expect(announcementAt(10)).toBe('The transaction expires in 10 seconds.');
    for (const seconds of [59, 45, 31, 29, 11, 9, 1]) expect(announcementAt(seconds)).toBeUndefined();
  });
});
