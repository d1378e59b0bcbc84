import { describe, expect, it } from 'vitest';
import { fixityReportCsv } from './fixity-report-csv.js';

describe('fixityReportCsv', () => {
  it('writes a header and one row per result, quoting what needs it', () => {
    expect(
      fixityReportCsv([
        {
          contextUri: 'http://x/a',
          status: 'SUCCESS',
          messageDigest: 'urn:sha-512:ab',
          size: '3',
          error: null,
        },
        {
          contextUri: 'http://x/b,c',
          status: 'ERROR',
          messageDigest: null,
          size: null,
          error: 'said "no"\nthen',
        },
      ]),
    ).toBe(
      'contextUri,status,messageDigest,size,error\r\n' +
        'http://x/a,SUCCESS,urn:sha-512:ab,3,\r\n' +
        '"http://x/b,c",ERROR,,,"said ""no""\nthen"\r\n',
    );
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    const csv = fixityReportCsv([
      {
        contextUri: '=HYPERLINK("http://evil")',
        status: 'ERROR',
        messageDigest: '+1',
        size: '-2',
        error: '@SUM(A1)',
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe(`"'=HYPERLINK(""http://evil"")",ERROR,'+1,'-2,'@SUM(A1)`);
  });
});
