import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../http/client-address.js';
import { envelope } from '../http/envelope.js';
import { SnapshotRateLimitStore } from './rate-limit-store.js';

export interface LoginRates {
  /** Attempts per minute from one client address. */
  readonly perAddress: number;
  /** Attempts per minute from all addresses together. */
  readonly global: number;
}

/** A 429 with the ERROR envelope; the security headers come from the onSend hook as for any answer. */
export function tooManyRequests(reply: FastifyReply, retryAfterSeconds: number, message: string) {
  return reply
    .code(429)
    .header('retry-after', String(Math.max(1, retryAfterSeconds)))
    .send(envelope('ERROR', message));
}

/**
 * The onRequest hook of `POST /auth/login`: at most `perAddress` attempts a minute from one client and
 * `global` from everyone (@fastify/rate-limit, counted in memory per process: rate-limit-store.ts).
 * The per-address limit is asked first, so one noisy client spends only its own share of the global
 * one. 429 is answered as ERROR, not UNAUTHORIZED: it says nothing about the credentials, only that
 * the service will not look at them now.
 */
export async function loginRateLimit(
  scope: FastifyInstance,
  rates: LoginRates,
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>> {
  await scope.register(rateLimit, { global: false, store: SnapshotRateLimitStore });
  const limiters = [
    scope.createRateLimit({
      max: rates.perAddress,
      timeWindow: 60_000,
      keyGenerator: (request) => clientKey(request.ip),
    }),
    scope.createRateLimit({ max: rates.global, timeWindow: 60_000, keyGenerator: () => 'all' }),
  ];
  return async (request, reply) => {
    for (const limiter of limiters) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) {
        return tooManyRequests(
          reply,
          result.ttlInSeconds,
          `Too many sign-in attempts; try again in ${String(Math.max(1, result.ttlInSeconds))} seconds`,
        );
      }
    }
    return undefined;
  };
}
