import { OPERATOR_SHAPES } from '../scenarios.js';
import { send } from './http.js';
import type { Send, Verify } from './measure.js';
import { addOperators, addRows } from './seed.js';
import { runSeries, scenario, type ScenarioResult } from './series.js';
import type { ScaleService } from './server.js';
import { DOCUMENT_VALUES, MAX_ROWS, OPERATOR_COUNTS, ROW_SIZES } from './settings.js';

/** The JSON API's collections: listing internal metadata and operators, applying operators. */

const ROWS_CAP = { value: MAX_ROWS, name: 'BENCH_SCALE_MAX_ROWS' };

function getOf(service: ScaleService, route: string): Send {
  const call = { method: 'GET', url: service.url + route, headers: service.api.auth };
  return (signal) => send(call, signal, true);
}

/** Checks that a list answer holds `size` items (the payload's one array, whatever its legacy key). */
const listCheck =
  (size: number): Verify =>
  (body) => {
    const items = Object.values((JSON.parse(body) as { payload: Record<string, unknown> }).payload)[0];
    const count = Array.isArray(items) ? items.length : 'no';
    return count === size ? undefined : `${count} items, expected ${size}`;
  };

/** GET /internal/metadata with 100, 1 000 and 10 000 rows. */
export async function rowsScenario(service: ScaleService): Promise<ScenarioResult[]> {
  const result = scenario('list-metadata', 'GET /internal/metadata, N rows', 'rows', [
    'Rows created through POST /internal/metadata (one in 20 required). The service keeps the list while ' +
      'SQLite reports no change, so the first request of a size (after the writes) pays for the read.',
  ]);
  let present = 0;
  await runSeries(
    service,
    ROW_SIZES,
    ROWS_CAP,
    async (size) => {
      await addRows(service, present, size);
      present = size;
    },
    [
      {
        result,
        send: () => getOf(service, '/internal/metadata'),
        verify: listCheck,
      },
    ],
  );
  return [result];
}

const operatorBodies = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({
    // The ten operator shapes of `npm run bench`, cycled.
    ...OPERATOR_SHAPES[(from + i) % OPERATOR_SHAPES.length],
    name: `scale_op_${from + i}`,
  }));

/** GET /operators with 100, 1 000 and 10 000 operators. */
export async function operatorsScenario(service: ScaleService): Promise<ScenarioResult[]> {
  const result = scenario('list-operators', 'GET /operators, N operators', 'operators', [
    'Operators created through POST /operators, the ten shapes of `npm run bench` in turn.',
  ]);
  let present = 0;
  await runSeries(
    service,
    ROW_SIZES,
    ROWS_CAP,
    async (size) => {
      await addOperators(service, operatorBodies(present, size));
      present = size;
    },
    [{ result, send: () => getOf(service, '/operators'), verify: listCheck }],
  );
  return [result];
}

/** A document of `values` values: half titles, a quarter dates, a quarter languages. */
function documentOf(values: number): Record<string, string[]> {
  const quarter = Math.floor(values / 4);
  const languages = ['en', 'fr', 'de', 'it'];
  return {
    title: Array.from({ length: values - 2 * quarter }, (_, i) => `A title ${i}`),
    date: Array.from({ length: quarter }, (_, i) => `20${String(i % 100).padStart(2, '0')}-03-25T10:15:30Z`),
    language: Array.from({ length: quarter }, (_, i) => languages[i % languages.length]!),
  };
}

/** POST /operators/apply with 1, 10 and 100 operators, on documents of 10 and of 1 000 values. */
export async function applyScenario(service: ScaleService): Promise<ScenarioResult[]> {
  const ids = await addOperators(service, operatorBodies(0, Math.max(...OPERATOR_COUNTS)));
  const results = DOCUMENT_VALUES.map((values) =>
    scenario(
      `apply-${values}`,
      `POST /operators/apply, N operators, document of ${values} values`,
      'operators',
      [
        `The document: ${values} values (half title, a quarter date, a quarter language); the operators: ` +
          'the first N stored ones, the ten shapes of `npm run bench` in turn.',
      ],
    ),
  );
  await runSeries(
    service,
    OPERATOR_COUNTS,
    { value: Number.MAX_SAFE_INTEGER, name: '' },
    () => Promise.resolve(),
    results.map((result, i) => ({
      result,
      send: (size: number): Send => {
        const body = JSON.stringify({
          document: documentOf(DOCUMENT_VALUES[i]!),
          operators: ids.slice(0, size),
        });
        const call = {
          method: 'POST',
          url: `${service.url}/operators/apply`,
          headers: { ...service.api.auth, 'content-type': 'application/json' },
          body,
        };
        return (signal) => send(call, signal, true);
      },
      verify: (): Verify => (body) => {
        const trace = (JSON.parse(body) as { payload: { MappedDocument: { trace: { error?: string }[] } } })
          .payload.MappedDocument.trace;
        const failing = trace.filter((entry) => entry.error !== undefined);
        return failing.length === 0 ? undefined : `the trace has errors: ${JSON.stringify(failing[0])}`;
      },
    })),
  );
  return results;
}
