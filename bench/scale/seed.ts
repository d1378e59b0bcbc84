import { pool } from '../context/api.js';
import { created, send, type Call } from './http.js';
import type { ScaleService } from './server.js';
import { DC, SEED_CONCURRENCY } from './settings.js';

/** The scale bench's data, all created through the service's HTTP interface, with progress. */

/** Runs `count` tasks, `concurrency` at a time, printing progress at most every 5 s. */
async function inParallel(
  label: string,
  count: number,
  task: (i: number) => Promise<unknown>,
  concurrency = SEED_CONCURRENCY,
) {
  const started = performance.now();
  let done = 0;
  let printed = started;
  await pool(
    Array.from({ length: count }, (_, i) => async () => {
      await task(i);
      done++;
      const now = performance.now();
      if (now - printed > 5000) {
        printed = now;
        const rate = done / ((now - started) / 1000);
        console.log(`     ${label}: ${done}/${count} (${rate.toFixed(0)}/s)`);
      }
    }),
    concurrency,
  );
  const seconds = (performance.now() - started) / 1000;
  if (count > 0) console.log(`     ${label}: ${count} in ${seconds.toFixed(1)} s`);
}

/** A new container under the embedded repository's root (POST /rest/, no body). */
export function createContainer(service: ScaleService): Promise<string> {
  return created({ method: 'POST', url: `${service.url}/rest/`, headers: service.basic });
}

/**
 * Adds `count` empty child containers to `container`, straight through the embedded repository
 * (POST <container>): the context API's POST …/children answers the re-rendered parent, which would
 * make seeding 100 000 children quadratic in itself.
 */
export async function addChildren(service: ScaleService, container: string, count: number): Promise<void> {
  await inParallel('children', count, () =>
    created({ method: 'POST', url: container, headers: service.basic }),
  );
}

/** Triples per PATCH while seeding: about 60 KiB of SPARQL, far under the body limits. */
const TRIPLES_PER_PATCH = 500;

/**
 * Adds metadata triples `dc:description "scale <from…to-1>"` to `resource`, 500 per PATCH, two at a
 * time: the repository applies PATCHes of one resource one after another, and a PATCH queued behind
 * many slow ones outwaits the service's idle timeout (the connection is then reset unanswered).
 */
export async function addTriples(service: ScaleService, resource: string, from: number, to: number) {
  const batches = Math.ceil((to - from) / TRIPLES_PER_PATCH);
  await inParallel(
    'metadata triples (PATCHes of 500)',
    batches,
    async (batch) => {
      const first = from + batch * TRIPLES_PER_PATCH;
      const last = Math.min(to, first + TRIPLES_PER_PATCH);
      const lines = Array.from(
        { length: last - first },
        (_, i) => `<${resource}> <${DC}description> "scale value ${first + i}" .`,
      );
      const call: Call = {
        method: 'PATCH',
        url: resource,
        headers: { ...service.basic, 'content-type': 'application/sparql-update' },
        body: `INSERT DATA {\n${lines.join('\n')}\n}`,
      };
      await send(call, AbortSignal.timeout(120_000), false);
    },
    2,
  );
}

/** Internal metadata rows `scale_<from…to-1>` (one in 20 required, as in `npm run bench`). */
export async function addRows(service: ScaleService, from: number, to: number): Promise<void> {
  await inParallel('internal metadata rows', to - from, (i) =>
    service.api.call('POST', '/internal/metadata', {
      gloss: `Scale ${from + i}`,
      field: `scale_${from + i}`,
      required: (from + i) % 20 === 19,
    }),
  );
}

/** Stores `bodies` as operators and returns their ids, in order. */
export async function addOperators(
  service: ScaleService,
  bodies: Record<string, unknown>[],
): Promise<number[]> {
  const ids: number[] = [];
  await inParallel('operators', bodies.length, async (i) => {
    const answer = await service.api.call('POST', '/operators', bodies[i]);
    ids[i] = (Object.values(answer.payload)[0] as { id: number }).id;
  });
  return ids;
}
