import { describe, expect, it } from 'vitest';
import { dayBound, filterOf } from './activity-filter';

describe('the Activity filter', () => {
  it('sends a day as the first and last millisecond of the reader’s day', () => {
    expect(dayBound('2026-11-28', 'start')).toBe(new Date(2026, 10, 28).toISOString());
    expect(dayBound('2026-11-28', 'end')).toBe(new Date(2026, 10, 28, 23, 59, 59, 999).toISOString());
  });

  it('sends anything else as typed, for the API to judge', () => {
    expect(dayBound('yesterday', 'start')).toBe('yesterday');
    expect(dayBound('2026-02-30', 'start')).toBe('2026-02-30');
    expect(dayBound('2026-11-28T07:00:00Z', 'end')).toBe('2026-11-28T07:00:00Z');
  });

  it('names only the filters that are set', () => {
    expect(filterOf({})).toEqual({});
    expect(filterOf({ viewId: 3, username: 'ada', action: 'metadata.update', offset: 50 })).toEqual({
      repositoryViewId: 3,
      username: 'ada',
      action: 'metadata.update',
    });
  });
});
