import type { LightMyRequestResponse } from 'fastify';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { FINAL_STATES, RUNNING_STATES, type JobState } from '../../../src/curation-jobs/job-states.js';
import { body, sendJson, type EnvelopeBody, type TestApp } from '../test-app.js';

/**
 * The spreadsheet API (DECISIONS.md §13) as a client script drives it: export a scope as CSV, read it
 * with csv-parse, write it back with csv-stringify (as a spreadsheet program saves it), import it as a
 * SPREADSHEET job, wait for the job, read every page of its preview, apply, undo. Shapes as the API
 * answers them, as far as the acceptance suites read them.
 */
export interface WireTriple {
  subject: string;
  predicate: string;
  object: string;
}

export interface SheetJob {
  id: number;
  kind: string;
  state: string;
  repositoryViewId: number;
  contextUri: string;
  scope: string;
  dryRun: boolean;
  spreadsheet: { rows: number; columns: string[] } | null;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}

export interface SheetChange {
  contextUri: string;
  removed: WireTriple[];
  added: WireTriple[];
  error: string | null;
  row: number | null;
}

export interface ExportAnswer {
  readonly response: LightMyRequestResponse;
  /** The CSV text, BOM included when there is one. */
  readonly text: string;
}

/** `GET …/export`: the CSV of a scope (the response as it came, for the tests that look at headers). */
export async function exportSheet(
  t: TestApp,
  prefix: string,
  query: { contextUri: string; scope: string; query?: string; bom?: boolean },
  token?: string,
): Promise<ExportAnswer> {
  const params = new URLSearchParams({ contextUri: query.contextUri, scope: query.scope, format: 'csv' });
  if (query.query !== undefined) params.set('query', query.query);
  if (query.bom === true) params.set('bom', 'true');
  const response = await sendJson(t.app, 'GET', `${prefix}/export?${params.toString()}`, undefined, {
    token,
  });
  return { response, text: response.rawPayload.toString('utf8') };
}

/** An export that must succeed: its CSV text, or the test fails saying what came instead. */
export async function exportedCsv(
  t: TestApp,
  prefix: string,
  query: { contextUri: string; scope: string; bom?: boolean },
  token?: string,
): Promise<string> {
  const { response, text } = await exportSheet(t, prefix, query, token);
  if (response.statusCode !== 200 || !String(response.headers['content-type']).startsWith('text/csv'))
    throw new Error(`export of ${query.contextUri}: ${response.statusCode} ${text.slice(0, 500)}`);
  return text;
}

/** The records of a CSV, header first, every field as text (a BOM is not part of the first header). */
export function readCsv(text: string): string[][] {
  return parse(text, { bom: true, relax_column_count: false });
}

/**
 * Records as a spreadsheet program saves them: CRLF line ends, fields quoted where needed (or every
 * field, as some programs do, with `quoteAll`).
 */
export function writeCsv(records: readonly (readonly string[])[], quoteAll = false): string {
  return stringify(records as string[][], {
    record_delimiter: 'windows',
    ...(quoteAll ? { quoted: true, quoted_empty: true } : {}),
  });
}

export interface ImportRequest {
  readonly repositoryViewId: number;
  readonly contextUri: string;
  readonly dryRun?: boolean;
}

/** `POST /curation-job` with kind SPREADSHEET and the CSV text in `spreadsheet` (JSON). */
export async function importSheet(
  t: TestApp,
  request: ImportRequest,
  csv: string,
  token?: string,
): Promise<EnvelopeBody> {
  return body(
    await sendJson(
      t.app,
      'POST',
      '/curation-job',
      { ...request, kind: 'SPREADSHEET', dryRun: request.dryRun ?? true, spreadsheet: csv },
      { token },
    ),
  );
}

/** `POST /curation-job` as multipart, the sheet as the `file` part: bytes exactly as given. */
export async function uploadSheet(
  t: TestApp,
  request: ImportRequest,
  file: Buffer,
  token: string = t.adminToken,
): Promise<EnvelopeBody> {
  const boundary = `----sheet${String(Math.random()).slice(2)}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head =
    field('repositoryViewId', String(request.repositoryViewId)) +
    field('contextUri', request.contextUri) +
    field('kind', 'SPREADSHEET') +
    field('dryRun', String(request.dryRun ?? true)) +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="sheet.csv"\r\n` +
    'Content-Type: text/csv\r\n\r\n';
  const response = await t.app.inject({
    method: 'POST',
    url: '/curation-job',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${token}`,
    },
    payload: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  });
  return body(response);
}

/** The job an import created; the test fails with the answer when it created none. */
export function createdJob(envelope: EnvelopeBody): SheetJob {
  const job = envelope.payload.CurationJob as SheetJob | undefined;
  if (envelope.meta.status !== 'SUCCESS' || job === undefined)
    throw new Error(`the import created no job: ${JSON.stringify(envelope).slice(0, 1000)}`);
  return job;
}

/** Waits for the job to reach one of `states`; one that settles elsewhere fails at once, saying why. */
export async function jobIn(
  t: TestApp,
  id: number,
  states: readonly string[],
  token?: string,
): Promise<SheetJob> {
  let job: SheetJob | undefined;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    job = body(await sendJson(t.app, 'GET', `/curation-job/${id}`, undefined, { token })).payload
      .CurationJob as SheetJob;
    if (states.includes(job.state)) return job;
    if (FINAL_STATES.includes(job.state as JobState))
      throw new Error(`job ${id} ended ${job.state} (${job.message ?? 'no message'})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}; it is ${job?.state} (${job?.message})`);
}

/** Every change of the job's preview, all pages (a page lost or repeated shows in the comparison). */
export async function allChanges(t: TestApp, id: number, token?: string): Promise<SheetChange[]> {
  const changes: SheetChange[] = [];
  const limit = 50;
  for (let offset = 0; ; offset += limit) {
    const envelope = body(
      await sendJson(t.app, 'GET', `/curation-job/${id}/changes?offset=${offset}&limit=${limit}`, undefined, {
        token,
      }),
    );
    if (envelope.meta.status !== 'SUCCESS')
      throw new Error(`changes of job ${id}: ${JSON.stringify(envelope)}`);
    const page = envelope.payload['ArrayList<ResourceChange>'] as SheetChange[];
    changes.push(...page);
    if (page.length < limit) return changes;
  }
}

/** `POST /curation-job/{id}/apply|undo`, then the job once it settled in one of `states`. */
export async function act(
  t: TestApp,
  id: number,
  action: 'apply' | 'undo',
  states: readonly string[],
  token?: string,
): Promise<SheetJob> {
  const answer = body(await sendJson(t.app, 'POST', `/curation-job/${id}/${action}`, undefined, { token }));
  if (answer.meta.status !== 'SUCCESS') throw new Error(`${action} of job ${id}: ${JSON.stringify(answer)}`);
  return settled(t, id, states, token);
}

/** Waits until the job is in a state that is not a moving one, and checks it is one of `states`. */
async function settled(t: TestApp, id: number, states: readonly string[], token?: string): Promise<SheetJob> {
  const moving: readonly string[] = ['QUEUED', ...RUNNING_STATES];
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = body(await sendJson(t.app, 'GET', `/curation-job/${id}`, undefined, { token })).payload
      .CurationJob as SheetJob;
    if (!moving.includes(job.state)) {
      if (!states.includes(job.state))
        throw new Error(`job ${id} is ${job.state}, not ${states.join('/')} (${job.message ?? ''})`);
      return job;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never settled`);
}

/** Every text an envelope carries (message and payload), for tests that look for what it names. */
export function textsOf(envelope: EnvelopeBody): string {
  return `${envelope.meta.message}\n${JSON.stringify(envelope.payload)}`;
}
