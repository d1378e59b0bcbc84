import type { FastifyInstance } from 'fastify';
import { envelopeSchema } from '../http/schemas.js';
import { METRICS_URL } from './metrics-guard.routes.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * GET /metrics: the Prometheus text format (DECISIONS.md §17). An ADMIN route that the metrics token also
 * opens (metrics-guard.routes.ts); a refusal is the envelope, as on every guarded route.
 */
export function metricsRoutes(metrics: ServiceMetrics) {
  return (app: FastifyInstance): void => {
    app.get(
      METRICS_URL,
      {
        schema: {
          tags: ['health'],
          summary: 'Prometheus metrics (text format); SCRIPTORIUM_METRICS_TOKEN or an ADMIN token',
          response: {
            200: { description: 'Prometheus text exposition format 0.0.4', type: 'string' },
            401: envelopeSchema(),
            403: envelopeSchema(),
          },
        },
      },
      async (_request, reply) => {
        const { contentType, body } = await metrics.text();
        return reply.type(contentType).send(body);
      },
    );
  };
}
