import Fastify from 'fastify';

/**
 * The baseline: bare Fastify answering every GET and POST path with a constant envelope. Its logger is
 * on at info level, like the service's production default, so both pay for the per-request log lines;
 * POST bodies go through Fastify's JSON parser as they do in the service.
 */
const BODY = {
  meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
  payload: {},
};

const app = Fastify({ logger: { level: 'info' } });
app.route({ method: ['GET', 'POST'], url: '/*', handler: () => Promise.resolve(BODY) });

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
