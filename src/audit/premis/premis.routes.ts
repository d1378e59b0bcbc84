import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../auth/roles.js';
import { principalOf } from '../../http/access.js';
import { messages } from '../../shared/body-schema.js';
import { ValidationFailedError } from '../../shared/errors.js';
import { ValidationCollector } from '../../shared/validation.js';
import type { AuditEvent } from '../audit-event.js';
import { premisDocument } from './premis-model.js';
import type { PremisQuery } from './premis-source.js';
import { premisTurtle } from './premis-turtle.js';
import { premisXml } from './premis-xml.js';
import { serviceAgent } from './service-agent.js';

export const PREMIS_FORMATS = ['xml', 'ttl'] as const;

/**
 * The query string. A missing or malformed view id is a request that cannot be understood (400 ERROR,
 * DECISIONS.md §2); an unknown format is the domain's INVALID.
 */
const PremisQueryString = Type.Object({
  repositoryViewId: Type.Integer({
    minimum: 1,
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'The repository view (required)',
    ...messages({ type: 'The query parameter repositoryViewId must be a positive integer' }),
  }),
  contextUri: Type.Optional(
    Type.String({
      description: 'One resource (absent: every resource of the view)',
      ...messages({ type: 'The query parameter contextUri must be given once' }),
    }),
  ),
  format: Type.Optional(
    Type.String({
      default: 'xml',
      description: 'xml (PREMIS 3.0 XML) or ttl (PREMIS 3 RDF as Turtle)',
      ...messages({ type: 'The query parameter format must be xml or ttl' }),
    }),
  ),
});

export type PremisReader = (query: PremisQuery, caller: Principal) => Promise<AuditEvent[]>;

/**
 * GET /audit/premis (DECISIONS.md §14): the view's (or one resource's) events as PREMIS 3.0 XML or PREMIS
 * 3 RDF. Not an envelope (the security headers still); every error is one, before any document byte.
 */
export function premisRoutes(read: PremisReader, publicUrl: string) {
  const service = serviceAgent();
  return (app: FastifyInstance): void => {
    app.get<{ Querystring: Static<typeof PremisQueryString> }>(
      '/audit/premis',
      {
        schema: {
          tags: ['audit'],
          summary:
            'A view’s (or one resource’s) audit events as PREMIS 3.0 XML, or ?format=ttl as PREMIS 3 RDF (not an envelope; errors are envelopes)',
          querystring: PremisQueryString,
          response: {},
        },
      },
      async (request, reply) => {
        const { repositoryViewId, contextUri, format = 'xml' } = request.query;
        if (!(PREMIS_FORMATS as readonly string[]).includes(format)) {
          const collector = new ValidationCollector();
          collector.add('format', 'type', 'The query parameter format must be xml or ttl');
          throw new ValidationFailedError(collector.results());
        }
        const events = await read(
          { repositoryViewId, ...(contextUri === undefined ? {} : { contextUri }) },
          principalOf(request),
        );
        const document = premisDocument(events, service);
        if (format === 'ttl')
          return reply
            .header('content-type', 'text/turtle; charset=utf-8')
            .send(await premisTurtle(document, { base: `${publicUrl}/audit/premis` }));
        return reply.header('content-type', 'application/xml; charset=utf-8').send(premisXml(document));
      },
    );
  };
}
