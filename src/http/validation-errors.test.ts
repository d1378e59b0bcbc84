import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBody } from '../shared/body-check.js';
import { messages, Nullable, OptionalId } from '../shared/body-schema.js';
import { BadRequestError } from '../shared/errors.js';
import { checkedBody, validatorCompiler } from './validation-errors.js';

/** Schema-first bodies: every failure of a body reported together, keyed as interface §7 keys them. */
const Sample = Type.Object({
  id: OptionalId,
  name: Type.String({
    minLength: 2,
    maxLength: 5,
    pattern: '^[a-z]+$',
    ...messages({
      required: 'A sample requires a name',
      minlength: 'A name must be at least 2 characters',
      maxlength: 'A name must be no more than 5 characters',
      pattern: 'A name is lower-case letters',
      type: 'A name must be a string',
    }),
  }),
  kind: Type.Union([Type.Literal('A'), Type.Literal('B')], messages({ type: 'A kind is A or B' })),
  note: Type.Optional(Nullable(Type.String({ maxLength: 3, ...messages({ type: 'A note is text' }) }))),
});

describe('checkBody', () => {
  it('reports every failing property together, each with its message', () => {
    const checked = checkBody(Sample, { id: 'x', name: 'A1', kind: 'C', note: 'long' });
    expect(checked.collector.results()).toEqual({
      valid: false,
      messages: {
        id: { type: 'An id must be a positive integer' },
        name: { pattern: 'A name is lower-case letters' },
        kind: { type: 'A kind is A or B' },
        note: { maxlength: 'A note is text' },
      },
    });
    expect(checked.value).toBeUndefined();
    expect(checked.get('kind')).toBeUndefined();
  });

  it('reports several limits of one property, and absent or null as required', () => {
    const checked = checkBody(Sample, { name: 'X', kind: null });
    expect(checked.collector.results().messages).toEqual({
      name: { minlength: 'A name must be at least 2 characters', pattern: 'A name is lower-case letters' },
      kind: { required: 'A kind is A or B' },
    });
    expect(checkBody(Sample, { kind: 'A' }).collector.results().messages).toEqual({
      name: { required: 'A sample requires a name' },
    });
  });

  it('reports a wrongly typed value as `type`, never coercing it', () => {
    const checked = checkBody(Sample, { id: '7', name: 12, kind: 'A', note: 5 });
    expect(checked.collector.results().messages).toEqual({
      id: { type: 'An id must be a positive integer' },
      name: { type: 'A name must be a string' },
      note: { type: 'A note is text' },
    });
    for (const id of [0, -1, 1.5, 1e300]) {
      expect(checkBody(Sample, { id, name: 'ab', kind: 'A' }).collector.results().messages).toEqual({
        id: { type: 'An id must be a positive integer' },
      });
    }
  });

  it('ignores unknown properties and answers the typed body when it passes', () => {
    const raw = { id: null, name: 'abc', kind: 'B', extra: { deep: true } };
    const checked = checkBody(Sample, raw);
    expect(checked.collector.isValid).toBe(true);
    expect(checked.value).toBe(raw);
    expect(checked.get('name')).toBe('abc');
  });

  it('keeps the passing properties usable for business checks when others fail', () => {
    const checked = checkBody(Sample, { id: 4, name: '', kind: 'A' });
    expect(checked.get('id')).toBe(4);
    expect(checked.passed('name')).toBe(false);
    checked.collector.business('CREATE', 'Sample with id 4 already exists');
    expect(checked.collector.results().messages).toEqual({
      name: { minlength: 'A name must be at least 2 characters', pattern: 'A name is lower-case letters' },
      business: { CREATE: 'Sample with id 4 already exists' },
    });
  });

  it('answers a 400 for a body that is not an object', () => {
    for (const raw of [undefined, null, 'text', 3, [], [{ name: 'ab' }]]) {
      expect(() => checkBody(Sample, raw)).toThrow(BadRequestError);
    }
  });
});

describe('Fastify validation of a schema-first body', () => {
  const app = Fastify();
  beforeAll(async () => {
    app.setValidatorCompiler(validatorCompiler);
    app.post('/sample', { schema: { body: Sample }, attachValidation: true }, (request) =>
      checkedBody(request, Sample).collector.results(),
    );
    app.post('/described', { schema: { body: { type: 'object', required: ['x'] } } }, () => 'unchecked');
    await app.ready();
  });
  afterAll(() => app.close());

  it('hands every failure to the handler instead of answering 400', async () => {
    const response = await app.inject({ method: 'POST', url: '/sample', payload: { name: 5, kind: 'Z' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      valid: false,
      messages: { name: { type: 'A name must be a string' }, kind: { type: 'A kind is A or B' } },
    });
  });

  it('leaves a body that passes untouched: no defaults, no coercion', async () => {
    const response = await app.inject({ method: 'POST', url: '/sample', payload: { name: 'ab', kind: 'A' } });
    expect(response.json()).toEqual({ valid: true, messages: {} });
  });

  it('does not validate plain JSON Schemas, which only describe the API', async () => {
    const response = await app.inject({ method: 'POST', url: '/described', payload: {} });
    expect(response.body).toBe('unchecked');
  });
});

describe('nested failures', () => {
  const WithList = Type.Object({
    items: Type.Optional(
      Type.Array(Type.Object({ id: OptionalId }), { maxItems: 2, ...messages({ type: 'Items are {id}s' }) }),
    ),
  });

  it('reports any failure inside a list as the property`s `type`', () => {
    for (const items of [[{ id: 'x' }], [3], 'list', [{}, {}, {}]]) {
      expect(checkBody(WithList, { items }).collector.results().messages).toEqual({
        items: { type: 'Items are {id}s' },
      });
    }
    expect(checkBody(WithList, { items: [{ id: 1 }, {}] }).collector.isValid).toBe(true);
  });
});
