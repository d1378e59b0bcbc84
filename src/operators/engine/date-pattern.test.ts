import { describe, expect, it } from 'vitest';
import { compileDatePattern, formatDate, isValidDatePattern, parseDateInput } from './date-pattern.js';

describe('isValidDatePattern', () => {
  const times = ['HH:mm:ss.SSS', 'HH:mm:ss,SSS', 'HH:mm:ss', 'HH:mm'];
  const accepted = ['yyyy-MM-dd', 'yyyy-MM', 'yyyy', 'MM/dd/yyyy'];
  for (const separator of ["'T'", ' ']) {
    for (const time of times) {
      for (const zone of ['', 'z', 'Z', 'ZZ']) accepted.push(`yyyy-MM-dd${separator}${time}${zone}`);
    }
  }
  // HH:mm takes no fraction, so .SSS appears only after ss: 2 × 4 × 4 + 4 patterns in all.
  it('covers the whole accepted family', () => {
    expect(accepted).toHaveLength(36);
  });

  it.each(accepted)('accepts %j', (pattern) => {
    expect(isValidDatePattern(pattern)).toBe(true);
  });

  it.each([
    "yyyy-MM-dd'T'HH:mm:ss|SSS",
    "yyyy-MM-dd'T'HH:mm:ss|",
    "yyyy-MM-dd'T'HH:mm:ss'Z'",
    "yyyy-MM-dd'T'HH:mm.SSS",
    "yyyy-MM-dd'T'HH:mm:ssZZZ",
    "yyyy-MM-dd'T'HH:mm:ssX",
    'yyyy-MM-ddTHH:mm:ss',
    'yyyy-MM-dd  HH:mm',
    'yyyy-MM-dd HH:mm:ss.SS',
    'dd/MM/yyyy',
    'yy',
    'foo',
    '',
    ' yyyy',
    'yyyy\n',
  ])('rejects %j', (pattern) => {
    expect(isValidDatePattern(pattern)).toBe(false);
  });
});

describe('formatDate', () => {
  const instant = new Date('2020-03-25T10:15:30.045Z');
  const winter = new Date('2020-01-25T10:15:30.045Z');
  it.each([
    [instant, "yyyy-MM-dd'T'HH:mm:ss.SSSZ", 'UTC', '2020-03-25T10:15:30.045+0000'],
    [instant, "yyyy-MM-dd'T'HH:mm:ss,SSSZZ", 'UTC', '2020-03-25T10:15:30,045+0000'],
    [instant, "yyyy-MM-dd'T'HH:mm:ssz", 'UTC', '2020-03-25T10:15:30UTC'],
    [instant, 'yyyy-MM-dd HH:mm Z', 'America/Chicago', '2020-03-25 05:15 -0500'],
    [instant, 'yyyy-MM-dd HH:mm:ssz', 'America/Chicago', '2020-03-25 05:15:30CDT'],
    [winter, 'yyyy-MM-dd HH:mm:ssz', 'America/Chicago', '2020-01-25 04:15:30CST'],
    [winter, "yyyy-MM-dd'T'HH:mmZZ", 'America/Chicago', '2020-01-25T04:15-0600'],
    [instant, 'yyyy-MM-dd HH:mmZ', 'Asia/Kolkata', '2020-03-25 15:45+0530'],
    [instant, 'yyyy-MM-dd', 'Pacific/Auckland', '2020-03-25'],
    [new Date('2020-03-25T12:00:00Z'), 'yyyy-MM-dd', 'Pacific/Auckland', '2020-03-26'],
    [instant, 'MM/dd/yyyy', 'UTC', '03/25/2020'],
    [instant, 'yyyy-MM', 'UTC', '2020-03'],
    [instant, 'yyyy', 'UTC', '2020'],
    [new Date('0099-01-02T03:04:05.006Z'), 'yyyy-MM-dd HH:mm:ss.SSS', 'UTC', '0099-01-02 03:04:05.006'],
    [instant, "yy 'o''clock' ''", 'UTC', "20 o'clock '"],
  ])('formats %o with %j in %s', (date, pattern, timeZone, expected) => {
    expect(formatDate(date, pattern, timeZone)).toBe(expected);
  });

  it.each([
    ['yyyy-MMM', 'Unsupported date pattern letter "MMM"'],
    ['EEE', 'Unsupported date pattern letter "EEE"'],
    ["yyyy'T", 'Unterminated quote'],
  ])('refuses pattern %j', (pattern, message) => {
    expect(() => compileDatePattern(pattern)).toThrow(message);
  });

  it.each(['Mars/Olympus', 'Foo+05', ''])('refuses the unknown time zone %j', (zone) => {
    expect(() => formatDate(instant, 'yyyy', zone)).toThrow('Unknown time zone');
  });

  it('refuses an invalid date', () => {
    expect(() => formatDate(new Date(NaN), 'yyyy', 'UTC')).toThrow('invalid date');
  });

  it('round-trips through parseDateInput', () => {
    const text = formatDate(instant, "yyyy-MM-dd'T'HH:mm:ss.SSSZ", 'America/Chicago');
    expect(text).toBe('2020-03-25T05:15:30.045-0500');
    expect(parseDateInput(text, 'UTC')?.getTime()).toBe(instant.getTime());
  });
});

describe('compileDatePattern memo', () => {
  it('hands out the same formatter for the same pattern, and keeps a bounded number', () => {
    const first = compileDatePattern('yyyy-MM-dd');
    expect(compileDatePattern('yyyy-MM-dd')).toBe(first);
    expect(first(new Date('2020-03-25T10:15:30Z'), 'UTC')).toBe('2020-03-25');
    for (let i = 0; i < compileDatePattern.cache.max + 10; i++) compileDatePattern(`yyyy'${i}'`);
    expect(compileDatePattern.cache.size).toBe(compileDatePattern.cache.max);
  });

  it('does not keep a pattern that fails to compile', () => {
    const before = compileDatePattern.cache.size;
    expect(() => compileDatePattern('yyyy-QQ')).toThrow();
    expect(compileDatePattern.cache.size).toBe(before);
  });
});
