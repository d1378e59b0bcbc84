import { describe, expect, it } from 'vitest';
import type { Operator } from '../operator.js';
import { applyOperators, type ApplyContext } from './apply-operators.js';

const utc: ApplyContext = { timeZone: 'UTC' };
const constant: Operator = { id: 1, type: 'CONSTANT_OP', name: 'Set lang', field: 'lang', value: 'fr' };
const dflt: Operator = { id: 2, type: 'DEFAULT_OP', name: 'Default lang', field: 'lang', value: 'en' };
const upper: Operator = {
  id: 3,
  type: 'MAPPING_OP',
  name: 'Map lang',
  field: 'lang',
  mapping: { fr: 'FR', en: 'EN' },
};
const b64: Operator = { id: 4, type: 'BASE_64_ENCODE_OP', name: 'Encode', field: 'lang' };
const appType: Operator = { id: 5, type: 'APPLICATION_TYPE_OP', name: 'App type', field: 'kind' };
const badRegex: Operator = {
  id: 6,
  type: 'REGEX_REPLACE_OP',
  name: 'Broken',
  field: 'lang',
  regex: '(',
  value: 'xx',
};

describe('applyOperators', () => {
  it.each<[string, Operator[], Record<string, string[]>]>([
    ['default then constant: constant wins', [dflt, constant], { title: ['T'], lang: ['fr'] }],
    ['constant then default: default keeps fr', [constant, dflt], { title: ['T'], lang: ['fr'] }],
    ['constant then mapping sees constant output', [constant, upper], { title: ['T'], lang: ['FR'] }],
    ['mapping then constant', [upper, constant], { title: ['T'], lang: ['fr'] }],
    ['encode after mapping', [dflt, upper, b64], { title: ['T'], lang: ['RU4='] }],
    ['no operators: a copy of the input', [], { title: ['T'] }],
  ])('order matters: %s', (_label, operators, expected) => {
    expect(applyOperators({ title: ['T'] }, operators, utc).document).toEqual(expected);
  });

  it('records before and after for each operator, null when absent', () => {
    const { trace } = applyOperators({ title: ['T'] }, [dflt, upper, constant], utc);
    expect(trace).toEqual([
      { operator: 'Default lang', field: 'lang', before: null, after: ['en'] },
      { operator: 'Map lang', field: 'lang', before: ['en'], after: ['EN'] },
      { operator: 'Set lang', field: 'lang', before: ['EN'], after: ['fr'] },
    ]);
    expect(trace[0]).not.toHaveProperty('error');
  });

  it('traces a no-op with before equal to after', () => {
    const { trace } = applyOperators({}, [upper], utc);
    expect(trace).toEqual([{ operator: 'Map lang', field: 'lang', before: null, after: null }]);
  });

  it('never mutates the input document', () => {
    const input = { lang: ['en', 'fr'], title: ['T'] };
    const snapshot = structuredClone(input);
    const { document } = applyOperators(input, [upper, constant, b64], utc);
    expect(input).toEqual(snapshot);
    document.title?.push('changed');
    expect(input.title).toEqual(['T']);
  });

  it('stops at an error and keeps the earlier results', () => {
    const result = applyOperators({ title: ['T'] }, [dflt, upper, badRegex, constant], utc);
    expect(result.document).toEqual({ title: ['T'], lang: ['EN'] });
    expect(result.trace).toHaveLength(3);
    expect(result.trace[2]).toEqual({
      operator: 'Broken',
      field: 'lang',
      before: ['EN'],
      after: ['EN'],
      error: expect.stringContaining('Invalid regex') as unknown,
    });
  });

  it.each<[ApplyContext, Record<string, string[]>, string | undefined]>([
    [{ timeZone: 'UTC', applicationType: 'dspace' }, { kind: ['dspace'] }, undefined],
    [utc, {}, 'APPLICATION_TYPE_OP needs a repositoryViewId naming an existing repository view'],
  ])('passes the context to APPLICATION_TYPE_OP (%o)', (context, expected, error) => {
    const result = applyOperators({}, [appType], context);
    expect(result.document).toEqual(expected);
    expect(result.trace[0]?.error).toBe(error);
  });

  it('reports an unknown operator type instead of throwing', () => {
    const bogus = { id: 9, type: 'NOPE_OP', name: 'Bogus', field: 'x' } as unknown as Operator;
    const result = applyOperators({ x: ['1'] }, [constant, bogus], utc);
    expect(result.document).toEqual({ x: ['1'], lang: ['fr'] });
    expect(result.trace[1]).toEqual({
      operator: 'Bogus',
      field: 'x',
      before: ['1'],
      after: ['1'],
      error: 'Unknown operator type NOPE_OP',
    });
  });

  it('handles field keys that shadow Object.prototype members', () => {
    const proto: Operator = { ...constant, field: '__proto__' };
    const result = applyOperators({ toString: ['s'] }, [proto, { ...dflt, field: 'constructor' }], utc);
    expect(Object.entries(result.document)).toEqual([
      ['toString', ['s']],
      ['__proto__', ['fr']],
      ['constructor', ['en']],
    ]);
    expect(Object.getPrototypeOf(result.document)).toBe(Object.prototype);
  });

  describe('a value an operator cannot transform', () => {
    const dates: Operator = {
      id: 7,
      type: 'DATE_NORMALIZATION_OP',
      name: 'Dates',
      field: 'dcterms:date',
      value: 'yyyy-MM-dd',
    };
    const input = { 'dcterms:date': ['ca. 1920', '03/25/2020', 'March 2020'] };

    it('is dropped by default (SAGE, POST /operators/apply), with a warning saying so', () => {
      const result = applyOperators(input, [dates], utc);
      expect(result.document).toEqual({ 'dcterms:date': ['2020-03-25'] });
      expect(result.warnings).toEqual([
        'DATE_NORMALIZATION_OP "Dates" could not transform dcterms:date value "ca. 1920"; dropped',
        'DATE_NORMALIZATION_OP "Dates" could not transform dcterms:date value "March 2020"; dropped',
      ]);
    });

    it('stays as it is, in its place, under KEEP (a curation job), with a warning saying so', () => {
      const result = applyOperators(input, [dates, dflt], { ...utc, untransformable: 'KEEP' });
      expect(result.document).toEqual({
        'dcterms:date': ['ca. 1920', '2020-03-25', 'March 2020'],
        lang: ['en'],
      });
      expect(result.trace[0]).toEqual({
        operator: 'Dates',
        field: 'dcterms:date',
        before: ['ca. 1920', '03/25/2020', 'March 2020'],
        after: ['ca. 1920', '2020-03-25', 'March 2020'],
      });
      expect(result.warnings).toEqual([
        'DATE_NORMALIZATION_OP "Dates" could not transform dcterms:date value "ca. 1920"; kept as it is',
        'DATE_NORMALIZATION_OP "Dates" could not transform dcterms:date value "March 2020"; kept as it is',
      ]);
    });

    it('gives no warning when every value transforms', () => {
      expect(applyOperators({ 'dcterms:date': ['2020'] }, [dates], utc).warnings).toEqual([]);
    });
  });
});
