import type { FastifyInstance } from 'fastify';
import { emptySuccess, envelope } from '../http/envelope.js';
import { envelopeSchema, payloadOf } from '../http/schemas.js';
import { runChecks, type ReadinessCheck } from './readiness.js';

export const READINESS = 'Readiness';

export interface ProbeOptions {
  readonly checks: readonly ReadinessCheck[];
  /** Where the binaries of the embedded repository are kept ('local', 's3'); absent when it is off. */
  readonly binaryStore: string | undefined;
  /** Each check's bound, in milliseconds (tests shorten it). */
  readonly timeoutMs?: number;
}

const readinessSchema = {
  type: 'object',
  properties: {
    checks: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, ok: { type: 'boolean' } },
        required: ['name', 'ok'],
      },
    },
    binaryStore: { type: ['string', 'null'], enum: ['local', 's3', null] },
  },
  required: ['checks', 'binaryStore'],
};

/**
 * GET /health/live (the process answers) and GET /health/ready (the database, the binary store and the
 * job queue answer; DECISIONS.md §17), public like GET /health, for load balancers and orchestrators.
 * Readiness answers 200 SUCCESS or 503 ERROR naming what is down, and never more than the name: the
 * detail is logged.
 */
export function healthProbeRoutes(options: ProbeOptions) {
  return (app: FastifyInstance): void => {
    app.get(
      '/health/live',
      {
        schema: {
          tags: ['health'],
          summary: 'Liveness: the process answers',
          response: { 200: envelopeSchema() },
        },
      },
      () => emptySuccess('The service is running'),
    );
    app.get(
      '/health/ready',
      {
        schema: {
          tags: ['health'],
          summary: 'Readiness: the database, the binary store and the job queue answer',
          response: {
            200: envelopeSchema(payloadOf(READINESS, readinessSchema)),
            503: envelopeSchema(payloadOf(READINESS, readinessSchema)),
          },
        },
      },
      async (request, reply) => {
        const checks = await runChecks(
          options.checks,
          (name, error) => {
            request.log.error({ err: error, check: name }, 'readiness check failed');
          },
          options.timeoutMs,
        );
        const payload = { [READINESS]: { checks, binaryStore: options.binaryStore ?? null } };
        const down = checks.filter((check) => !check.ok).map((check) => check.name);
        if (down.length === 0) return envelope('SUCCESS', 'Ready: every dependency answers', payload);
        return reply
          .code(503)
          .send(envelope('ERROR', `Not ready: ${down.join(', ')} not answering`, payload));
      },
    );
  };
}
