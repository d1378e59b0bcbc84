import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import { clientKey } from '../../http/client-address.js';
import { EndOfTurn } from '../../shared/end-of-turn.js';
import { CredentialCheck, type RepositoryCredentials } from '../credentials.js';
import { RepositoryRefusal } from '../refusal.js';
import { isStoreRefusal } from '../store/errors.js';
import { REPOSITORY_SAFETY_HEADERS } from './active-content.js';
import { AuthFailureThrottle } from './auth-throttle.js';
import { RepositoryError } from './errors.js';
import { baseOf } from './context.js';
import type { RepositoryHandlers } from './handlers.js';
import { CONSTRAINED_BY } from './render.js';
import { answerToDomainRefusal } from './refusal-status.js';
import { answerToRefusal } from './store-errors.js';

const METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * HTTP Basic authentication of the repository (Fedora's default); 401 with a challenge otherwise, 429
 * once a client has sent too many wrong credentials (auth-throttle.ts). The check of a request waits for
 * the end of the turn it was received in, with the other requests of that turn (EndOfTurn), as the API's
 * access check does: the service then answers them in a burst, at less CPU per request.
 */
function basicAuth(
  credentials: RepositoryCredentials,
  throttle: AuthFailureThrottle,
  endOfTurn: EndOfTurn,
): onRequestHookHandler {
  const check = new CredentialCheck(credentials);
  const verify = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    // The client's key only matters once some client has failed (parsing the address is not free).
    const client = throttle.hasFailures() ? clientKey(request.ip) : undefined;
    const wait = client === undefined ? 0 : throttle.retryAfterMs(client);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      // Answered here: a hook that sends its reply does not call `done`.
      void reply
        .code(429)
        .header('retry-after', String(seconds))
        .type('text/plain; charset=utf-8')
        .send(`Too many failed authentication attempts; try again in ${String(seconds)} seconds`);
      return;
    }
    const verdict = check.verify(request.headers.authorization);
    if (verdict.kind === 'right') {
      request.repositoryUser = verdict.username;
      done();
      return;
    }
    if (verdict.kind === 'wrong') throttle.recordFailure(client ?? clientKey(request.ip));
    void reply
      .code(401)
      .header('www-authenticate', 'Basic realm="fcrepo"')
      .type('text/plain; charset=utf-8')
      .send('Authentication required');
  };
  return (request, reply, done) => {
    endOfTurn.add(() => {
      try {
        verify(request, reply, done);
      } catch (error) {
        done(error as Error); // to the error handler, never out of the end-of-turn run
      }
    });
  };
}

function constraintsLink(request: FastifyRequest): string | undefined {
  try {
    return `<${baseOf(request)}/fcr:constraints>; rel="${CONSTRAINED_BY}"`;
  } catch {
    return undefined;
  }
}

/**
 * The embedded repository as an encapsulated Fastify plugin mounted at /rest: its own content-type
 * parsing (every body stays a stream; RDF is read with a limit by the handlers, binaries are streamed to
 * disk and never held whole), HTTP Basic auth, and an error handler writing plain-text problem bodies
 * with LDP statuses instead of the API's envelopes.
 */
export function repositoryPlugin(handlers: RepositoryHandlers, credentials: RepositoryCredentials) {
  return (scope: FastifyInstance): Promise<void> => {
    scope.decorateRequest('repositoryUser', null);
    scope.decorateReply('repositoryExpires', null);
    scope.removeAllContentTypeParsers();
    // RDF (Turtle, N-Triples, JSON-LD, RDF/XML), SPARQL Update and binaries alike: the raw request stream.
    scope.addContentTypeParser('*', (_request, payload, done) => {
      done(null, payload);
    });
    scope.addHook('onRequest', basicAuth(credentials, new AuthFailureThrottle(), new EndOfTurn()));
    // The security headers hook sets `Expires: 0` on every response; a transaction start answers its
    // expiry in Expires (Fedora 6), so give it back here (this scope's hooks run after the root's).
    scope.addHook('onSend', async (_request, reply, payload) => {
      // Nothing /rest answers (uploaded HTML or SVG above all) may run scripts on the service's origin.
      reply.headers(REPOSITORY_SAFETY_HEADERS);
      if (reply.repositoryExpires !== null) reply.header('expires', reply.repositoryExpires);
      return payload;
    });
    scope.setErrorHandler(async (error: unknown, request, reply) => {
      let status = 500;
      let message = `Internal error (request id ${request.id})`;
      let constrained = false;
      // The store and the domain modules refuse in their own terms (store/errors.ts, refusal.ts);
      // their statuses are decided here.
      const answer = isStoreRefusal(error)
        ? answerToRefusal(error)
        : error instanceof RepositoryRefusal
          ? answerToDomainRefusal(error)
          : error;
      if (answer instanceof RepositoryError) {
        status = answer.status;
        message = answer.message;
        constrained = answer.options.constrained === true;
        if (answer.options.headers !== undefined) reply.headers(answer.options.headers);
      } else {
        const statusCode = (error as FastifyError).statusCode;
        if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
          status = statusCode;
          message = (error as Error).message;
        }
      }
      if (status >= 500) request.log.error({ err: error }, 'embedded repository failure');
      else
        request.log.info({ status, reason: message.split('\n')[0] }, 'embedded repository refused a request');
      if (constrained) {
        const linkValue = constraintsLink(request);
        if (linkValue !== undefined) reply.header('link', linkValue);
      }
      return reply.code(status).type('text/plain; charset=utf-8').send(`${message}\n`);
    });
    const options = {
      method: METHODS,
      exposeHeadRoutes: false,
      // Outside the API's role table: the plugin authenticates with HTTP Basic itself.
      config: { access: 'ROLE_ANONYMOUS' as const },
      // LDP, not the JSON API: left out of the OpenAPI document.
      schema: { hide: true },
      handler: (request: FastifyRequest, reply: FastifyReply) => handlers.handle(request, reply),
    };
    scope.route({ ...options, url: '/' });
    scope.route({ ...options, url: '/*' });
    return Promise.resolve();
  };
}
