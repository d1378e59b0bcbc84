import type autocannon from 'autocannon';

/** One measured request shape; the baseline receives exactly the same requests on the bare server. */
export interface Scenario {
  readonly key: 'list' | 'create' | 'apply';
  readonly label: string;
  /** The least ratio to bare Fastify this scenario must reach (issue 10); undefined: no goal. */
  readonly goal: number | undefined;
  readonly requests: autocannon.Request[];
}

const JSON_HEADERS = { 'content-type': 'application/json' };
export const LIST_ROWS = 100;
/** A SUCCESS envelope starts like this (http/envelope.ts key order); INVALID answers come with HTTP 200. */
export const SUCCESS_PREFIX = '{"meta":{"status":"SUCCESS"';

interface Envelope {
  meta: { status: string; message: string };
  payload: Record<string, unknown>;
}

type Headers = Readonly<Record<string, string>>;

async function call(
  baseUrl: string,
  auth: Headers,
  method: string,
  path: string,
  body?: unknown,
): Promise<Envelope> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: body === undefined ? auth : { ...JSON_HEADERS, ...auth },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as Envelope;
  if (!response.ok || envelope.meta.status !== 'SUCCESS') {
    throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(envelope).slice(0, 500)}`);
  }
  return envelope;
}

/**
 * Signs in as the administrator when the build has sign-in (POST /auth/login) and returns the header
 * every request then carries; a build without it (404) needs no header.
 */
export async function signIn(baseUrl: string, username: string, password: string): Promise<Headers> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ username, password }),
  });
  if (response.status === 404) return {};
  const envelope = (await response.json()) as Envelope;
  const values = Object.values(envelope.payload);
  const token = values
    .map((v) => (typeof v === 'string' ? v : (v as { token?: unknown } | null)?.token))
    .find((v): v is string => typeof v === 'string');
  if (envelope.meta.status !== 'SUCCESS' || token === undefined) {
    throw new Error(`sign-in as ${username} failed: ${JSON.stringify(envelope).slice(0, 500)}`);
  }
  return { authorization: `Bearer ${token}` };
}

/** How many internal metadata rows the service holds. */
export async function countRows(baseUrl: string, auth: Headers): Promise<number> {
  const listed = await call(baseUrl, auth, 'GET', '/internal/metadata');
  return (listed.payload['ArrayList<InternalMetadata>'] as unknown[]).length;
}

/** The ten operator shapes of the apply scenario: every type except APPLICATION_TYPE_OP (it needs a view). */
export const OPERATOR_SHAPES: readonly Readonly<Record<string, unknown>>[] = [
  { type: 'CONSTANT_OP', field: 'publisher', value: 'Scriptorium Press' },
  { type: 'DEFAULT_OP', field: 'language', value: 'und' },
  { type: 'TEMPLATE_OP', field: 'label', value: '{{title}} (bench)' },
  { type: 'REGEX_REPLACE_OP', field: 'title', value: 'The ', regex: '^A ' },
  { type: 'MAPPING_OP', field: 'language', mapping: { en: 'eng', fr: 'fra', de: 'deu' } },
  { type: 'BASE_64_ENCODE_OP', field: 'label' },
  { type: 'DATE_NORMALIZATION_OP', field: 'date', value: 'yyyy-MM-dd' },
  { type: 'CONSTANT_OP', field: 'rights', value: 'CC-BY-4.0' },
  { type: 'TEMPLATE_OP', field: 'citation', value: '{{title}}, {{date}}' },
  { type: 'REGEX_REPLACE_OP', field: 'citation', value: '$3.$2.$1', regex: '(\\d{4})-(\\d{2})-(\\d{2})' },
];

/** The ten operators of the apply scenario, named with the run's prefix. */
export function operatorBodies(prefix: string): Record<string, unknown>[] {
  return OPERATOR_SHAPES.map((op, i) => ({ ...op, name: `${prefix}op_${i + 1}` }));
}

/** Every twentieth seeded row is required: the fields apply reports missing, in the table's order. */
const isRequiredSeed = (i: number) => i % 20 === 0;

export function requiredSeedFields(prefix: string): string[] {
  return Array.from({ length: LIST_ROWS }, (_, i) => i + 1)
    .filter(isRequiredSeed)
    .map((i) => `${prefix}seed_${i}`);
}

/**
 * Stores 100 internal metadata rows and 10 operators through the API, checks one request of each
 * scenario, and returns the scenarios in execution order: list and apply before create, because
 * create grows the table that list returns and apply reads (for its required fields).
 */
export async function prepareScenarios(baseUrl: string, prefix: string, auth: Headers): Promise<Scenario[]> {
  const existing = await countRows(baseUrl, auth);
  if (existing > 0) throw new Error(`the database already holds ${existing} internal metadata rows`);
  for (let i = 1; i <= LIST_ROWS; i++) {
    await call(baseUrl, auth, 'POST', '/internal/metadata', {
      gloss: `Seed ${i}`,
      field: `${prefix}seed_${i}`,
      required: isRequiredSeed(i),
    });
  }
  const ids: number[] = [];
  for (const body of operatorBodies(prefix)) {
    const created = await call(baseUrl, auth, 'POST', '/operators', body);
    const operator = Object.values(created.payload)[0] as { id: number };
    ids.push(operator.id);
  }

  const applyBody = JSON.stringify({
    document: { title: ['A title'], date: ['2020-03-25T10:15:30Z'], language: ['en'] },
    operators: ids,
  });
  const postHeaders = { ...JSON_HEADERS, ...auth };
  let n = 0;
  const scenarios: Scenario[] = [
    {
      key: 'list',
      label: `GET /internal/metadata (${LIST_ROWS} rows)`,
      goal: 0.7,
      requests: [{ method: 'GET', path: '/internal/metadata', headers: auth }],
    },
    {
      key: 'apply',
      label: 'POST /operators/apply (10 operators)',
      goal: 0.5,
      requests: [{ method: 'POST', path: '/operators/apply', headers: postHeaders, body: applyBody }],
    },
    {
      key: 'create',
      label: 'POST /internal/metadata (new row each)',
      goal: undefined,
      requests: [
        {
          method: 'POST',
          path: '/internal/metadata',
          headers: postHeaders,
          // Every request, over all runs, gets the next number: each one creates a new row.
          setupRequest: (request) => {
            n++;
            return {
              ...request,
              body: JSON.stringify({ gloss: `Bench ${n}`, field: `${prefix}bench_${n}`, required: false }),
            };
          },
        },
      ],
    },
  ];

  const rows = await countRows(baseUrl, auth);
  if (rows !== LIST_ROWS) throw new Error(`expected ${LIST_ROWS} rows after seeding, found ${rows}`);
  const applied = await call(baseUrl, auth, 'POST', '/operators/apply', JSON.parse(applyBody));
  const trace = (applied.payload.MappedDocument as { trace: { operator: string; error?: string }[] }).trace;
  const failing = trace.filter((entry) => entry.error !== undefined);
  if (failing.length > 0) throw new Error(`apply trace has errors: ${JSON.stringify(failing)}`);
  return scenarios;
}
