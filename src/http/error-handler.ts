import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queryInvalid } from '../search/query/query-invalid.js';
import { InvalidQueryError } from '../search/search.js';
import { AppError, type ErrorCode } from '../shared/errors.js';
import { envelope, type Envelope } from './envelope.js';

/** The one table from domain error codes to HTTP statuses and envelope statuses (DECISIONS.md §2). */
const STATUS_BY_CODE: Readonly<Record<ErrorCode, { http: number; status: Envelope['meta']['status'] }>> = {
  VALIDATION_FAILED: { http: 200, status: 'INVALID' },
  BAD_REQUEST: { http: 400, status: 'ERROR' },
  NOT_FOUND: { http: 404, status: 'ERROR' },
  UNAUTHENTICATED: { http: 401, status: 'UNAUTHORIZED' },
  FORBIDDEN: { http: 403, status: 'UNAUTHORIZED' },
  UPSTREAM_FAILED: { http: 200, status: 'ERROR' },
  PRECONDITION_FAILED: { http: 200, status: 'ERROR' },
  CAPABILITY_UNSUPPORTED: { http: 200, status: 'ERROR' },
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && 'code' in error && typeof (error as { code: unknown }).code === 'string';
}

/** Fastify's own request errors, each with a message a client can act on. */
function describeFrameworkError(error: FastifyError): { http: number; message: string } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { http: 400, message: `Malformed JSON body: ${error.message}` };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { http: 413, message: 'Request body is larger than the limit' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { http: 415, message: 'Unsupported content type; send application/json' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { http: 400, message: 'Content-Length does not match the body' };
    case 'FST_ERR_VALIDATION':
      return { http: 400, message: error.message };
    default:
      break;
  }
  // JSON.parse failures surface as a SyntaxError with statusCode 400.
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { http: error.statusCode, message: error.message };
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (thrown: unknown, request: FastifyRequest, reply: FastifyReply) => {
    // A malformed search query, wherever it is parsed (GET …/search, a QUERY-scoped job): INVALID on `q`.
    const error = thrown instanceof InvalidQueryError ? queryInvalid(thrown) : thrown;
    if (error instanceof AppError) {
      const mapped = STATUS_BY_CODE[error.code];
      const payload = 'results' in error ? { ValidationResults: error.results } : {};
      return reply.code(mapped.http).send(envelope(mapped.status, error.message, payload));
    }
    if (isFastifyError(error) || error instanceof SyntaxError) {
      const described = describeFrameworkError(error as FastifyError);
      if (described !== undefined) {
        request.log.info({ code: (error as FastifyError).code }, described.message);
        return reply.code(described.http).send(envelope('ERROR', described.message));
      }
    }
    // A bug: the details go to the log with the request id, never to the client.
    request.log.error({ err: error }, 'unexpected failure');
    return reply.code(500).send(envelope('ERROR', `Your request caused an error (request id ${request.id})`));
  });

  app.setNotFoundHandler(async (request, reply) =>
    reply
      .code(404)
      .send(envelope('ERROR', `No route for ${request.method} ${request.url.split('?')[0] ?? ''}`)),
  );
}
