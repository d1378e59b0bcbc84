import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../http/access.js';
import { emptySuccess, success } from '../http/envelope.js';
import { payloadOf } from '../http/schemas.js';
import { contextSchema, tripleSchema } from './context.api.js';
import type { ContextService, ContextSession } from './context.service.js';
import { contextResourceRoutes } from './context-resource.routes.js';
import { PREFIX, schemaFor, sessionOf, type ContextRequest } from './context-route-shared.js';
import { contextTransactionRoutes } from './context-transaction.routes.js';

const CONTEXT = payloadOf('RepositoryViewContext', contextSchema);
const TRIPLES = payloadOf('ArrayList<Triple>', { type: 'array', items: tripleSchema });

/** Interface §4.4 plus the commit endpoint and a binary download (DECISIONS.md §7). */
export function contextRoutes(service: ContextService, limits: { maxFileBytes: number }) {
  return async (app: FastifyInstance): Promise<void> => {
    // Only these routes accept forms, uploads and SPARQL text; the rest of the API stays JSON-only.
    await app.register(formbody, { bodyLimit: 64 * 1024 });
    await app.register(multipart, {
      limits: { files: 1, fields: 5, fieldSize: 8 * 1024, fileSize: limits.maxFileBytes, parts: 6 },
    });
    app.addContentTypeParser(
      'application/sparql-update',
      { parseAs: 'string', bodyLimit: 128 * 1024 },
      (_request, body, done) => {
        done(null, body);
      },
    );
    const context = (session: ContextSession) => service.read(session);
    const asContext = async (work: Promise<unknown>) => success('RepositoryViewContext', await work);

    app.get<ContextRequest>(PREFIX, { schema: schemaFor('Render a context', CONTEXT) }, async (request) =>
      asContext(context(await sessionOf(service, request))),
    );
    app.delete<ContextRequest>(
      PREFIX,
      { schema: schemaFor('Delete the resource', undefined) },
      async (request) => {
        await service.delete(await sessionOf(service, request));
        return emptySuccess();
      },
    );
    app.get<ContextRequest>(
      `${PREFIX}/triples`,
      { schema: schemaFor('All triples of the resource', TRIPLES) },
      async (request) =>
        success('ArrayList<Triple>', await service.triples(await sessionOf(service, request))),
    );
    app.get<ContextRequest>(
      `${PREFIX}/children`,
      { schema: schemaFor('Children (ldp:contains)', TRIPLES) },
      async (request) =>
        success('ArrayList<Triple>', await service.children(await sessionOf(service, request))),
    );
    app.post<ContextRequest>(
      `${PREFIX}/children`,
      {
        schema: schemaFor('Create ONE child carrying the triples', CONTEXT, {
          type: 'array',
          items: tripleSchema,
        }),
      },
      async (request) => asContext(service.createChild(await sessionOf(service, request), request.body)),
    );
    app.get<ContextRequest>(
      `${PREFIX}/metadata`,
      { schema: schemaFor('Metadata triples', TRIPLES) },
      async (request) =>
        success('ArrayList<Triple>', await service.metadata(await sessionOf(service, request))),
    );
    app.post<ContextRequest>(
      `${PREFIX}/metadata`,
      { schema: schemaFor('Add a triple', CONTEXT, tripleSchema) },
      async (request) => asContext(service.addMetadata(await sessionOf(service, request), request.body)),
    );
    app.put<ContextRequest>(
      `${PREFIX}/metadata`,
      { schema: schemaFor('Replace the triple’s object with ?value', CONTEXT, tripleSchema) },
      async (request) =>
        asContext(
          service.updateMetadata(await sessionOf(service, request), request.body, request.query.value),
        ),
    );
    app.delete<ContextRequest>(
      `${PREFIX}/metadata`,
      { schema: schemaFor('Delete a triple', CONTEXT, tripleSchema) },
      async (request) => asContext(service.deleteMetadata(await sessionOf(service, request), request.body)),
    );
    app.post<ContextRequest>(
      `${PREFIX}/query`,
      { schema: schemaFor('Run a vetted SPARQL Update (ADMIN)', CONTEXT, { type: 'string' }) },
      async (request) => asContext(service.query(await sessionOf(service, request), request.body)),
    );
    app.get<ContextRequest>(
      `${PREFIX}/query`,
      { schema: schemaFor('Query help', payloadOf('String', { type: 'string' })) },
      async (request) => {
        const opened = await service.openView(
          request.params.type,
          request.params.repositoryViewId,
          principalOf(request),
        );
        return success('String', service.queryHelp(opened), 'Successfully retrieved query help.');
      },
    );
    contextResourceRoutes(app, service, limits);
    contextTransactionRoutes(app, service);
  };
}
