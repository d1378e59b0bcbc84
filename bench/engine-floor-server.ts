import Fastify from 'fastify';
import { success } from '../src/http/envelope.js';
import { applyOperators } from '../src/operators/engine/apply-operators.js';
import type { MappingDocument } from '../src/operators/engine/mapping-document.js';
import { ApplyBody } from '../src/operators/operator-apply.schema.js';
import type { Operator } from '../src/operators/operator.js';
import { compiledCheck } from '../src/shared/body-check.js';
import { floorObligations } from './floor-obligations.js';
import { operatorBodies } from './scenarios.js';

/**
 * The floors of the list and apply scenarios, in one process.
 *
 * The list scenario's floor: bare Fastify answering `GET /internal/metadata` with the bytes the service
 * answered for the same request, held as one string (BENCH_FLOOR_LIST_BODY): what sending this answer
 * costs, where bare-server.ts sends a hundred bytes. The service keeps the list's JSON while nothing is
 * written too, so neither serializes the rows per request.
 *
 * The apply scenario's floor: bare Fastify (logger at info, like bare-server.ts) doing only the work the
 * answer needs. The body goes through Fastify's JSON parser, the bench's ten operators (held in memory,
 * named with the run's prefix, BENCH_FLOOR_PREFIX) run on its document in the service's own engine, and
 * the answer is the same MappedDocument envelope (the required fields the service would report missing
 * come in BENCH_FLOOR_REQUIRED, comma-separated), serialized by JSON.stringify as the service does.
 * No authentication, database, body schema, security headers or request id: what the service adds over
 * this is its own per-request cost. run.ts checks that both answer the bench's body with the same bytes.
 *
 * With BENCH_FLOOR_OBLIGATIONS=1 the same server is the "obligations floor": it also does what every
 * request to the service must do (floor-obligations.ts: connection limits, request id, security headers,
 * the sign-in check with revocation seen at once) and checks the apply body against the service's schema.
 */
const prefix = process.env.BENCH_FLOOR_PREFIX ?? '';
const required = (process.env.BENCH_FLOOR_REQUIRED ?? '').split(',').filter((field) => field !== '');
const operators = operatorBodies(prefix).map((body, i) => ({ ...body, id: i + 1 }) as unknown as Operator);

const listBody = process.env.BENCH_FLOOR_LIST_BODY ?? '';

const obligations = process.env.BENCH_FLOOR_OBLIGATIONS === '1' ? floorObligations(process.env) : undefined;
const checkBody = compiledCheck(ApplyBody);

const app = Fastify({ logger: { level: 'info' }, ...obligations?.fastifyOptions });
obligations?.register(app);
app.get('/internal/metadata', (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(listBody),
);
app.post('/operators/apply', (request) => {
  if (obligations !== undefined && !checkBody.Check(request.body))
    throw new Error('the body fails its schema');
  const body = request.body as { document: MappingDocument; operators: number[] };
  if (body.operators.length !== operators.length)
    throw new Error('the floor knows the bench’s ten operators only');
  const result = applyOperators(body.document, operators, { timeZone: 'UTC', applicationType: undefined });
  const missingRequired = required.filter((field) => (result.document[field] ?? []).length === 0);
  return Promise.resolve(
    success('MappedDocument', { document: result.document, trace: result.trace, missingRequired }),
  );
});

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
