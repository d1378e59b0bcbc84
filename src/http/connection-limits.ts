import type http from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Config } from '../config/config.js';

type Limits = Pick<
  Config,
  | 'idleTimeoutSeconds'
  | 'headersTimeoutSeconds'
  | 'requestTimeoutSeconds'
  | 'keepAliveTimeoutSeconds'
  | 'maxConnections'
>;

/**
 * Fastify options that bound how long a slow or silent client may hold a connection (slowloris).
 * Fastify's own defaults leave the request and idle timeouts off, so one body byte kept a connection
 * open for ever. Node checks the headers and request timeouts on an interval (30 s by default); a
 * fraction of the headers timeout keeps them close to what is configured.
 */
export function connectionOptions(limits: Limits): FastifyHttpOptions<http.Server> {
  const headersTimeout = limits.headersTimeoutSeconds * 1000;
  const requestTimeout = limits.requestTimeoutSeconds * 1000;
  return {
    connectionTimeout: limits.idleTimeoutSeconds * 1000,
    keepAliveTimeout: limits.keepAliveTimeoutSeconds * 1000,
    requestTimeout,
    http: {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.min(5000, Math.max(100, Math.floor(headersTimeout / 4))),
    },
  };
}

/** Beyond the cap Node closes a new connection at once, before reading anything from it. */
export function capConnections(app: FastifyInstance, limits: Limits): void {
  app.server.maxConnections = limits.maxConnections;
}
