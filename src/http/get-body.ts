import type { FastifyRequest } from 'fastify';
import { readBounded } from '../linked-data/http/bounded-body.js';
import { BadRequestError } from '../shared/errors.js';

/**
 * Fastify does not parse bodies of GET requests, but the interface documents `GET /user/delete` with
 * a JSON body. This reads that body (bounded by the body limit) for the routes that need it.
 */
export async function parseGetJsonBody(request: FastifyRequest, limit: number): Promise<void> {
  if (request.method !== 'GET' || request.body !== undefined) return;
  const body = await readBounded(request.raw, limit, {
    // Fastify's own error for an oversized body, so the error handler answers as for any other route.
    tooLarge: () =>
      Object.assign(new Error('Request body is larger than the limit'), {
        code: 'FST_ERR_CTP_BODY_TOO_LARGE',
        statusCode: 413,
      }),
  });
  const text = body.toString('utf8');
  if (text.trim() === '') return;
  try {
    request.body = JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestError(
      `Malformed JSON body: ${error instanceof Error ? error.message : 'unparsable'}`,
    );
  }
}
