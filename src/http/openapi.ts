import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

/**
 * OpenAPI 3.1 generated from the route schemas, served at /openapi.json, with a browsable reference at
 * /docs. Must be registered before the routes it describes.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Scriptorium',
        version: '0.1.0',
        description:
          'Curation service for digital repositories. Every API response is the envelope ' +
          '`{"meta":{"status","action","message","id"},"payload":{…}}`; see the README for status rules.',
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
