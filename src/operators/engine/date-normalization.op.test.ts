import { describe, expect, it } from 'vitest';
import type { ValueOperator } from '../operator.js';
import { applyDateNormalization } from './date-normalization.op.js';
import { withAnswer, type MappingDocument } from './mapping-document.js';

function op(value: string): ValueOperator {
  return { id: 8, type: 'DATE_NORMALIZATION_OP', name: 'Dates', field: 'date', value };
}

const ISO = "yyyy-MM-dd'T'HH:mm:ssZ";

describe('DATE_NORMALIZATION_OP', () => {
  it.each<[string, string, string, MappingDocument, MappingDocument]>([
    [
      'formats with Z in UTC',
      ISO,
      'UTC',
      { date: ['2020-03-25T10:15:30Z'] },
      { date: ['2020-03-25T10:15:30+0000'] },
    ],
    [
      'shifts into America/Chicago',
      'yyyy-MM-dd HH:mm Z',
      'America/Chicago',
      { date: ['2020-03-25T10:15:30Z'] },
      { date: ['2020-03-25 05:15 -0500'] },
    ],
    [
      'prints a short zone name with z',
      'yyyy-MM-dd HH:mmz',
      'America/Chicago',
      { date: ['2020-03-25T10:15:30Z'] },
      { date: ['2020-03-25 05:15CDT'] },
    ],
    [
      'prints UTC with z',
      "yyyy-MM-dd'T'HH:mm:ssz",
      'UTC',
      { date: ['2020-03-25 10:15'] },
      { date: ['2020-03-25T10:15:00UTC'] },
    ],
    [
      'keeps milliseconds with .SSS',
      "yyyy-MM-dd'T'HH:mm:ss.SSSZZ",
      'UTC',
      { date: ['2020-03-25T10:15:30,123'] },
      { date: ['2020-03-25T10:15:30.123+0000'] },
    ],
    [
      'reads -05:00 offsets',
      ISO,
      'UTC',
      { date: ['2020-03-25T10:15:30-05:00'] },
      { date: ['2020-03-25T15:15:30+0000'] },
    ],
    [
      'reads wall times in the context zone',
      ISO,
      'America/Chicago',
      { date: ['2020-03-25 10:15'] },
      { date: ['2020-03-25T10:15:00-0500'] },
    ],
    ['reads MM/dd/yyyy', 'yyyy-MM-dd', 'UTC', { date: ['03/25/2020'] }, { date: ['2020-03-25'] }],
    ['reads yyyy', 'yyyy-MM-dd', 'UTC', { date: ['2020'] }, { date: ['2020-01-01'] }],
    ['reads yyyy-MM', 'MM/dd/yyyy', 'UTC', { date: ['2020-03'] }, { date: ['03/01/2020'] }],
    ['narrows to a year', 'yyyy', 'UTC', { date: ['2020-03-25T10:15:30Z'] }, { date: ['2020'] }],
    ['drops 2020-02-30', 'yyyy-MM-dd', 'UTC', { date: ['2020-02-30'] }, { date: [] }],
    [
      'drops bad values and keeps good ones in order',
      'yyyy-MM-dd',
      'UTC',
      { date: ['2020-13-45', '2020-3-5', 'March 2020', '2020-02-29'] },
      { date: ['2020-03-05', '2020-02-29'] },
    ],
    ['keeps an empty list', 'yyyy', 'UTC', { date: [] }, { date: [] }],
    ['is a no-op on an absent field', 'yyyy', 'UTC', { title: ['2020'] }, { title: ['2020'] }],
  ])('%s', (_label, pattern, timeZone, input, expected) => {
    const snapshot = structuredClone(input);
    expect(withAnswer(input, 'date', applyDateNormalization(input, op(pattern), { timeZone }))).toEqual(
      expected,
    );
    expect(input).toEqual(snapshot);
  });

  it.each([
    ['yyyy', 'Mars/Olympus', 'Unknown time zone "Mars/Olympus"'],
    ['yyyy-MMMM', 'UTC', 'Unsupported date pattern letter'],
  ])('throws for pattern %j in zone %j, even on an absent field', (pattern, timeZone, message) => {
    expect(() => applyDateNormalization({ date: ['2020'] }, op(pattern), { timeZone })).toThrow(message);
    expect(() => applyDateNormalization({}, op(pattern), { timeZone })).toThrow(message);
  });

  it('hands each value it cannot read to `untransformable`, which keeps or drops it', () => {
    const told: string[] = [];
    const keep = (value: string) => {
      told.push(value);
      return value;
    };
    const input = { date: ['ca. 1920', '2020-03-25', 'March 2020'] };
    expect(applyDateNormalization(input, op('yyyy'), { timeZone: 'UTC' }, keep)).toEqual([
      'ca. 1920',
      '2020',
      'March 2020',
    ]);
    expect(told).toEqual(['ca. 1920', 'March 2020']);
  });
});
