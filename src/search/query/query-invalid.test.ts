import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../http/error-handler.js';
import { InvalidQueryError } from '../search.js';

/**
 * A malformed query thrown anywhere a request is answered (GET …/search converts its own; a QUERY-scoped
 * job's POST, the index past a regex bound) is an INVALID naming the problem and where, never a 500.
 */
describe('InvalidQueryError through the error handler', () => {
  async function answer(error: InvalidQueryError) {
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/', () => {
      throw error;
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    await app.close();
    return { status: response.statusCode, body: response.json<unknown>() };
  }

  it('answers 200 INVALID with the message, the position and ValidationResults on q', async () => {
    expect(await answer(new InvalidQueryError('Unbalanced quote', 7))).toEqual({
      status: 200,
      body: {
        meta: { status: 'INVALID', action: null, message: 'Unbalanced quote (at position 7)', id: null },
        payload: {
          ValidationResults: {
            valid: false,
            messages: { q: { pattern: 'Unbalanced quote (at position 7)', position: '7' } },
          },
        },
      },
    });
  });

  it('leaves the position out when the problem has none', async () => {
    expect(await answer(new InvalidQueryError('Too many values for the regular expression'))).toEqual({
      status: 200,
      body: {
        meta: {
          status: 'INVALID',
          action: null,
          message: 'Too many values for the regular expression',
          id: null,
        },
        payload: {
          ValidationResults: {
            valid: false,
            messages: { q: { pattern: 'Too many values for the regular expression' } },
          },
        },
      },
    });
  });
});
