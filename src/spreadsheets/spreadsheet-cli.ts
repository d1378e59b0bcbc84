import { createWriteStream } from 'node:fs';
import { openAsBlob } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import type { CurationJob } from '../curation-jobs/curation-job.js';
import {
  describeRefusal,
  follow,
  JobApi,
  JobCliError,
  serverOf,
  tokenOf,
  type Envelope,
  type JobCliIo,
} from '../curation-jobs/job-cli.js';
import { groupDigits } from '../curation-jobs/progress-bar.js';
import { viewIdOf, viewPrefix } from '../search/search-cli.js';
import { printPreview } from './spreadsheet-cli-preview.js';

export const SPREADSHEET_USAGE = `  scriptorium export <view id> <context IRI> <file.csv> [--scope CHILDREN|SUBTREE|QUERY|MEMBERS]
                     [--query <q>] [--bom]
      Writes the metadata of the context's scope as CSV (DECISIONS.md §13) to the file, streamed as the
      service sends it. Scope defaults to SUBTREE, or to QUERY with --query; --bom starts the file with a
      byte order mark, for Excel. Nothing is left at <file.csv> when the export fails.
  scriptorium import <view id> <context IRI> <file.csv> [--apply]
      Uploads the sheet as a SPREADSHEET curation job (new rows, "+", become children of the context),
      shows its progress and the preview's summary with the rows that failed. Without --apply nothing is
      written: the job waits, previewed, for \`scriptorium job apply <id>\`. With --apply a preview in which
      no row failed is applied at once and followed to its end.
  Both talk to the running service like the job commands (--server, SCRIPTORIUM_TOKEN or --username).`;

const SCOPES = ['CHILDREN', 'SUBTREE', 'QUERY', 'MEMBERS'];

/** Progress lines while bytes flow: redrawn in place on a terminal, else one line every few seconds. */
class ByteMeter {
  /** The first line comes after one interval: a short export prints only its result. */
  private lastDrawn = Date.now();
  private drawn = false;
  bytes = 0;

  constructor(
    private readonly io: JobCliIo,
    private readonly label: string,
  ) {}

  add(count: number): void {
    this.bytes += count;
    const now = Date.now();
    if (now - this.lastDrawn < (this.io.interactive ? 100 : 5000)) return;
    this.lastDrawn = now;
    this.draw();
  }

  draw(): void {
    this.drawn = true;
    const line = `${this.label}: ${groupDigits(this.bytes)} bytes written`;
    this.io.write(this.io.interactive ? `\r${line}\u001b[K` : `${line}\n`);
  }

  /** Ends a redrawn line, so what follows starts on its own. */
  end(): void {
    if (this.io.interactive && this.drawn) this.io.write('\n');
  }
}

/** Aborts `controller` when the user interrupts, so a transfer stops and cleans up after itself. */
function abortOnInterrupt(io: JobCliIo): AbortController {
  const controller = new AbortController();
  io.onInterrupt(() => {
    controller.abort(new JobCliError('Interrupted'));
  });
  return controller;
}

function reason(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

/** A JSON answer (the envelope of a refusal, or of a job), told apart from a CSV stream by its type. */
async function envelopeOf(response: Response, what: string): Promise<Envelope> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    throw new JobCliError(`${what} answered HTTP ${response.status}, not a JSON envelope`);
  }
}

async function exportSheet(
  io: JobCliIo,
  options: { base: string; token: string; prefix: string; contextUri: string; file: string } & {
    scope: string;
    query: string | undefined;
    bom: boolean;
  },
): Promise<number> {
  const params = new URLSearchParams({ contextUri: options.contextUri, scope: options.scope, format: 'csv' });
  if (options.query !== undefined) params.set('query', options.query);
  if (options.bom) params.set('bom', 'true');
  const controller = abortOnInterrupt(io);
  let response: Response;
  try {
    response = await io.fetch(new URL(`${options.prefix}/export?${params.toString()}`, options.base), {
      headers: { authorization: `Bearer ${options.token}`, accept: 'text/csv, application/json' },
      signal: controller.signal,
    });
  } catch (error) {
    throw new JobCliError(`Cannot reach the service at ${options.base}: ${reason(error)}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/csv') || response.body === null) {
    const envelope = await envelopeOf(response, 'The export');
    throw new JobCliError(describeRefusal(envelope));
  }
  // Written beside the target under a temporary name and renamed when complete: a failed export leaves
  // neither a partial file nor a clobbered earlier one.
  const target = path.resolve(options.file);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.part`);
  const meter = new ByteMeter(io, `Exporting to ${options.file}`);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      meter.add(chunk.length);
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial),
      { signal: controller.signal },
    );
    await rename(partial, target);
  } catch (error) {
    meter.end();
    await unlink(partial).catch(() => undefined);
    const why = controller.signal.aborted ? 'interrupted' : reason(error);
    throw new JobCliError(
      `The export broke off after ${groupDigits(meter.bytes)} bytes (${why}); no file was written`,
    );
  }
  meter.end();
  io.write(`Exported ${groupDigits(meter.bytes)} bytes to ${options.file}\n`);
  return 0;
}

/** Uploads the sheet as multipart, streamed from disk (a file-backed Blob), and answers the created job. */
async function uploadSheet(
  io: JobCliIo,
  options: { base: string; token: string; viewId: number; contextUri: string; file: string },
): Promise<CurationJob> {
  let size: number;
  try {
    const info = await stat(options.file);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
  } catch (error) {
    throw new JobCliError(`Cannot read ${options.file}: ${reason(error)}`);
  }
  const form = new FormData();
  form.set('repositoryViewId', String(options.viewId));
  form.set('contextUri', options.contextUri);
  form.set('kind', 'SPREADSHEET');
  form.set('dryRun', 'true');
  // The file last: the service reads the fields before it streams the file part.
  form.set('file', await openAsBlob(options.file, { type: 'text/csv' }), path.basename(options.file));
  io.write(`Uploading ${options.file} (${groupDigits(size)} bytes)…\n`);
  const controller = abortOnInterrupt(io);
  let response: Response;
  try {
    response = await io.fetch(new URL('/curation-job', options.base), {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}` },
      body: form,
      // Without it fetch keeps a tee of the body for a redirect to resend, which holds the whole file in
      // memory (a 200 MB upload: +170 MiB RSS); with it the file streams from disk (+15 MiB).
      redirect: 'error',
      signal: controller.signal,
    });
  } catch (error) {
    const why = controller.signal.aborted ? 'interrupted' : reason(error);
    throw new JobCliError(`The upload to ${options.base} failed (${why}); no job was started`);
  }
  const envelope = await envelopeOf(response, 'The upload');
  if (envelope.meta.status !== 'SUCCESS') throw new JobCliError(describeRefusal(envelope));
  const job = envelope.payload.CurationJob;
  if (job === undefined) throw new JobCliError('The upload answer holds no CurationJob');
  return job as CurationJob;
}

async function importSheet(
  io: JobCliIo,
  options: { base: string; token: string; viewId: number; contextUri: string; file: string; apply: boolean },
): Promise<number> {
  const created = await uploadSheet(io, options);
  const sheet = created.spreadsheet;
  io.write(
    `Started SPREADSHEET job ${created.id}` +
      (sheet === null
        ? '\n'
        : `: ${groupDigits(sheet.rows)} rows, ${sheet.columns.length} metadata columns (${sheet.columns.join(', ')})\n`),
  );
  const api = new JobApi(options.base, options.token, io.fetch);
  const previewed = await follow(api, created, io);
  if (previewed.state !== 'PREVIEWED') return 1;
  await printPreview(api, previewed, io);
  const { changed, failed } = previewed.progress;
  const applyLater = `npm run scriptorium -- job apply ${previewed.id}`;
  if (!options.apply) {
    io.write(`Nothing is written yet. To apply job ${previewed.id}: ${applyLater}\n`);
    return failed === 0 ? 0 : 1;
  }
  if (failed > 0) {
    io.write(
      `Not applied: ${groupDigits(failed)} row${failed === 1 ? '' : 's'} failed. Correct the sheet and import it ` +
        `again, or write the other rows' changes with: ${applyLater}\n`,
    );
    return 1;
  }
  if (changed === 0) {
    io.write('Nothing to apply: no row changes anything.\n');
    return 0;
  }
  const applying = await api.call('POST', `/curation-job/${previewed.id}/apply`);
  const ended = await follow(api, applying, io);
  return ended.state === 'APPLIED' ? 0 : 1;
}

/** parseArgs' refusals of an unknown or malformed option are usage errors, not failures. */
function isUsageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}

/** `scriptorium export …` and `scriptorium import …`; answers the exit code (0 ok, 1 refused or failed, 2 usage). */
export async function runSpreadsheetCommand(
  command: 'export' | 'import',
  argv: readonly string[],
  io: JobCliIo,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        scope: { type: 'string' },
        query: { type: 'string' },
        bom: { type: 'boolean' },
        apply: { type: 'boolean' },
        server: { type: 'string' },
        username: { type: 'string' },
      },
    });
  } catch (error) {
    if (!isUsageError(error)) throw error;
    io.write(`${(error as Error).message}\n${SPREADSHEET_USAGE}\n`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [viewText, contextUri, file] = positionals;
  if (contextUri === undefined || file === undefined || positionals.length > 3) {
    io.write(`${command} needs a view id, a context IRI and a file\n${SPREADSHEET_USAGE}\n`);
    return 2;
  }
  const misplaced = (command === 'export' ? ['apply'] : ['scope', 'query', 'bom']).filter(
    (option) => option in values,
  );
  if (misplaced.length > 0) {
    io.write(
      `${command} takes no ${misplaced.map((option) => `--${option}`).join(', ')}\n${SPREADSHEET_USAGE}\n`,
    );
    return 2;
  }
  const scope = (values.scope ?? (values.query === undefined ? 'SUBTREE' : 'QUERY')).toUpperCase();
  if (!SCOPES.includes(scope)) {
    io.write(`--scope is one of ${SCOPES.join(', ')}, not ${values.scope ?? ''}\n`);
    return 2;
  }
  try {
    const viewId = viewIdOf(viewText);
    const base = serverOf(io, values.server);
    const token = await tokenOf(io, base, values.username);
    if (command === 'import')
      return await importSheet(io, { base, token, viewId, contextUri, file, apply: values.apply === true });
    const prefix = await viewPrefix(io, base, token, viewId);
    return await exportSheet(io, {
      base,
      token,
      prefix,
      contextUri,
      file,
      scope,
      query: values.query,
      bom: values.bom === true,
    });
  } catch (error) {
    if (error instanceof JobCliError) {
      io.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
