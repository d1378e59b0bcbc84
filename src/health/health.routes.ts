import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { emptySuccess, envelope } from '../http/envelope.js';
import { envelopeSchema } from '../http/schemas.js';

/** GET /health: SUCCESS when the database answers, 503 ERROR otherwise (for load balancers). */
export function healthRoutes<DB>(db: Kysely<DB>) {
  return (app: FastifyInstance): void => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness and database check',
          response: { 200: envelopeSchema(), 503: envelopeSchema() },
        },
      },
      async (request, reply) => {
        try {
          await sql`select 1`.execute(db);
          return emptySuccess('Service and database are up');
        } catch (error) {
          request.log.error({ err: error }, 'health check: database did not answer');
          return reply.code(503).send(envelope('ERROR', 'Database is not answering'));
        }
      },
    );
  };
}
