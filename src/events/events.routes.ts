import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { roleSatisfies, type Principal, type Role } from '../auth/roles.js';
import { principalOf, type Authorizer } from '../http/access.js';
import { success } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { messages } from '../shared/body-schema.js';
import { BadRequestError, ForbiddenError, UnauthenticatedError } from '../shared/errors.js';
import type { EventTicketStore } from './event-ticket.store.js';
import { EventStream, type EventStreamDependencies } from './event-stream.js';

const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8';

/** The one route a ticket opens (browsers' EventSource cannot send an Authorization header). */
const EVENTS_URL = '/events';

const tags = ['events'];

const LAST_EVENT_ID = 'Last-Event-ID must be the id of an event (digits)';

const EventsQuery = Type.Object({
  ticket: Type.Optional(
    Type.String({
      description: 'A one-time ticket (valid for 60 s)',
      ...messages({ type: 'The query parameter ticket must be given once' }),
    }),
  ),
  lastEventId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
      description: 'The id of the last event received',
      ...messages({ type: LAST_EVENT_ID }),
    }),
  ),
});

export interface EventRouteDependencies extends Omit<EventStreamDependencies, 'session' | 'headers'> {
  readonly tickets: EventTicketStore;
}

/**
 * `GET /events` (Server-Sent Events of envelopes) and `POST /events/ticket` (DECISIONS.md §10). The
 * streams still open end when the app closes, so closing never waits on a client.
 */
export function eventRoutes(deps: EventRouteDependencies) {
  return (app: FastifyInstance): void => {
    const now = deps.now ?? (() => Date.now());
    const open = new Set<EventStream>();
    const streamDeps: EventStreamDependencies = {
      ...deps,
      headers: SECURITY_HEADERS,
      session: (tokenHash) => deps.tickets.liveSession(tokenHash, now()),
    };
    app.addHook('preClose', (done) => {
      for (const stream of open) stream.end();
      done();
    });

    app.get<{ Querystring: Static<typeof EventsQuery> }>(
      EVENTS_URL,
      {
        schema: {
          tags,
          summary:
            'Server-Sent Events: every change the caller may read, as envelopes (`event:` names the channel)',
          description:
            'Authenticate with the Authorization header, or with `?ticket=` from POST /events/ticket ' +
            '(browsers). `Last-Event-ID` (or `?lastEventId=`) replays the missed events still kept. A ' +
            '`: keep-alive` comment comes every 15 s; the stream ends with the session.',
          querystring: EventsQuery,
          produces: ['text/event-stream'],
        },
      },
      (request, reply) => {
        const principal = principalOf(request);
        const afterId = lastEventIdOf(request);
        // Fastify answers HEAD with this handler too: the headers, and no stream left open.
        if (request.method === 'HEAD') return reply.type(EVENT_STREAM_TYPE).send();
        reply.hijack();
        const stream = new EventStream(reply.raw, principal, streamDeps, (ended) => open.delete(ended));
        open.add(stream);
        stream.open(afterId);
        return reply;
      },
    );

    app.post(
      `${EVENTS_URL}/ticket`,
      {
        schema: {
          tags,
          summary: 'A one-time ticket for GET /events?ticket= (EventSource cannot send headers)',
          response: {
            200: envelopeSchema(
              payloadOf('EventTicket', {
                type: 'object',
                properties: {
                  ticket: { type: 'string' },
                  expires: { type: 'integer', description: 'Epoch milliseconds' },
                },
              }),
            ),
          },
        },
      },
      async (request) => success('EventTicket', await deps.tickets.issue(principalOf(request), now())),
    );
  };
}

/**
 * The header wins over the query parameter (EventSource sends the header when it reconnects). The query
 * parameter is checked by the route's schema; a header has none, so its digits are read here.
 */
function lastEventIdOf(
  request: FastifyRequest<{ Querystring: Static<typeof EventsQuery> }>,
): number | undefined {
  const header = request.headers['last-event-id'];
  if (typeof header !== 'string' || header === '') return request.query.lastEventId;
  if (!/^\d{1,16}$/.test(header)) throw new BadRequestError(LAST_EVENT_ID);
  return Number(header);
}

/**
 * The access seam with one addition: `GET /events?ticket=…` is authorized by redeeming the ticket.
 * Every other request, and `GET /events` without a ticket, goes to the token authorizer unchanged; a
 * ticket anywhere else is ignored, and no route ever reads a token from the URL.
 */
export class TicketAuthorizer implements Authorizer {
  constructor(
    private readonly tokens: Authorizer,
    private readonly tickets: EventTicketStore,
    private readonly now: () => number = () => Date.now(),
  ) {}

  authorize(request: FastifyRequest, required: Role): Principal | undefined | Promise<Principal | undefined> {
    const ticket = ticketOf(request);
    return ticket === undefined ? this.tokens.authorize(request, required) : this.redeem(ticket, required);
  }

  private async redeem(ticket: string, required: Role): Promise<Principal> {
    const principal = await this.tickets.redeem(ticket, this.now());
    if (principal === undefined)
      throw new UnauthenticatedError('The event ticket is unknown, used or expired; ask for a new one');
    if (!roleSatisfies(principal.role, required)) throw new ForbiddenError();
    return principal;
  }
}

function ticketOf(request: FastifyRequest): string | undefined {
  // The URL first: every request passes here, and routeOptions is built anew on each read.
  if (request.method !== 'GET' || !request.url.startsWith(`${EVENTS_URL}?`)) return undefined;
  if (request.routeOptions.url !== EVENTS_URL) return undefined;
  const query = request.query;
  if (typeof query !== 'object' || query === null) return undefined;
  const ticket = (query as Record<string, unknown>).ticket;
  // A repeated parameter arrives as an array: not a ticket.
  return typeof ticket === 'string' ? ticket : Array.isArray(ticket) ? '' : undefined;
}
