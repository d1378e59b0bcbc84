import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Schema-first bodies through the real app: Fastify's validation never answers 400 for a body's content;
 * its failures and the business ones arrive together in one INVALID (DECISIONS.md §3).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('schema-first validation', () => {
  it('reports wrongly typed fields as `type` together with a business failure', async () => {
    const created = await sendJson(t.app, 'POST', '/internal/metadata', { gloss: 'Title', field: 'title' });
    const id = (body(created).payload.InternalMetadata as { id: number }).id;
    const response = await sendJson(t.app, 'POST', '/internal/metadata', {
      id,
      gloss: 7,
      field: ['title'],
      required: 'no',
      unknown: { ignored: true },
    });
    expect(response.statusCode).toBe(200);
    expect(body(response).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: {
          gloss: { type: 'A internal metadatum gloss must be a string' },
          field: { type: 'A internal metadatum field must be a string' },
          required: { type: 'A internal metadatum required flag must be true or false' },
          business: { CREATE: `InternalMetadata with id ${id} already exists` },
        },
      },
    });
  });

  it('still answers 400 for a body that is not an object', async () => {
    const response = await sendJson(t.app, 'POST', '/user/update', ['not', 'an', 'object']);
    expect(response.statusCode).toBe(400);
    expect(body(response).meta.message).toBe('The request body must be a JSON object');
  });

  it('checks a discriminated body with the schema its type selects', async () => {
    const response = await sendJson(t.app, 'POST', '/operators', {
      type: 'REGEX_REPLACE_OP',
      name: 5,
      field: 'x',
      value: 9,
    });
    expect(body(response).payload).toEqual({
      ValidationResults: {
        valid: false,
        messages: {
          name: { type: 'A operator name must be a string' },
          field: { minlength: 'A regex replace operator field must be at least 2 characters' },
          value: { type: 'A regex replace operator value must be a string' },
          regex: { required: 'A regex replace operator requires a regex' },
        },
      },
    });
  });

  it('documents each body in OpenAPI from the same schema, limits included', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
    }>();
    const body = spec.paths['/internal/metadata']?.post?.requestBody?.content['application/json']?.schema;
    expect(body).toMatchObject({
      type: 'object',
      required: ['gloss', 'field'],
      properties: { gloss: { type: 'string', minLength: 2, maxLength: 50 } },
    });
  });
});
