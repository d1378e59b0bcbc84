import { parseArgs } from 'node:util';
import type { CurationJob } from './curation-job.js';
import { RUNNING_STATES, type JobState } from './job-states.js';
import { progressLine } from './progress-bar.js';

export const JOB_USAGE = `  scriptorium job run --view <id> --context <IRI> --kind <MAPPING|FIXITY>
                      [--scope <RESOURCE|CHILDREN|SUBTREE|QUERY|MEMBERS>] [--query <q>]
                      [--operators <id,id,…>] [--apply]
      Starts a curation job through the service's API and shows its progress until it ends. A MAPPING
      job previews by default; --apply writes at once. Scope defaults to SUBTREE, or to QUERY with
      --query: the resources a search for <q> finds within the context (the search's query language).
      MEMBERS: the resources the context names with pcdm:hasMember or that name it with pcdm:memberOf.
  scriptorium job apply|undo|cancel|show <job id>
      Applies a previewed job, undoes an applied one, cancels a running one (then follows it), or shows it.
  Every job command talks to the running service: --server <URL> (default http://127.0.0.1:$PORT, PORT
  defaulting to 8080), signed in with SCRIPTORIUM_TOKEN, or --username <name> and the password read
  from standard input.`;

/** What the job commands need from the outside world (tests hand in their own). */
export interface JobCliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly fetch: typeof fetch;
  readonly readPassword: () => Promise<string>;
  readonly write: (text: string) => void;
  /** True when the output is a terminal: the progress line is redrawn in place. */
  readonly interactive: boolean;
  readonly pollMs: number;
  /** Called once when the user interrupts (Ctrl-C); the job is then cancelled and followed to its end. */
  readonly onInterrupt: (listener: () => void) => void;
}

export interface Envelope {
  meta: { status: string; message: string };
  payload: Record<string, unknown>;
}

const FAILED: readonly JobState[] = ['FAILED', 'CANCELLED'];

export class JobCliError extends Error {}

/** An API client for the job commands: one base URL, one bearer token. */
export class JobApi {
  constructor(
    readonly base: string,
    readonly token: string,
    private readonly fetchImpl: typeof fetch,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<CurationJob> {
    const envelope = await request(this.fetchImpl, this.base, method, path, this.token, body);
    const job = envelope.payload.CurationJob;
    if (job === undefined) throw new JobCliError(`${method} ${path}: the answer holds no CurationJob`);
    return job as CurationJob;
  }
}

export async function request(
  fetchImpl: typeof fetch,
  base: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Envelope> {
  let response: Response;
  try {
    response = await fetchImpl(new URL(path, base), {
      method,
      headers: {
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new JobCliError(`Cannot reach the service at ${base}: ${why}`);
  }
  const text = await response.text();
  let envelope: Envelope;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    throw new JobCliError(`${method} ${path} answered HTTP ${response.status}, not a JSON envelope`);
  }
  if (envelope.meta.status !== 'SUCCESS') throw new JobCliError(describeRefusal(envelope));
  return envelope;
}

/** An INVALID envelope's per-field messages, or the ERROR message. */
export function describeRefusal(envelope: Envelope): string {
  const results = envelope.payload.ValidationResults as
    { messages?: Record<string, Record<string, string>> } | undefined;
  const lines = Object.entries(results?.messages ?? {}).flatMap(([field, messages]) =>
    Object.entries(messages)
      // A malformed query's `position` is its `pattern`'s "(at position n)" again, for clients that mark it.
      .filter(([key]) => key !== 'position')
      .map(([, text]) => `${field}: ${text}`),
  );
  return lines.length === 0 ? `${envelope.meta.status}: ${envelope.meta.message}` : lines.join('\n');
}

export function serverOf(io: JobCliIo, given: string | undefined): string {
  const base = given ?? `http://127.0.0.1:${io.env.PORT ?? '8080'}`;
  try {
    return new URL(base).toString();
  } catch {
    throw new JobCliError(`--server must be a URL, not ${base}`);
  }
}

export async function tokenOf(io: JobCliIo, base: string, username: string | undefined): Promise<string> {
  const fromEnv = io.env.SCRIPTORIUM_TOKEN;
  if (username === undefined) {
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    throw new JobCliError('Sign in with SCRIPTORIUM_TOKEN, or --username and the password on standard input');
  }
  const password = await io.readPassword();
  const envelope = await request(io.fetch, base, 'POST', '/auth/login', undefined, { username, password });
  const token = (envelope.payload.AuthToken as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string') throw new JobCliError('The sign-in answer holds no token');
  return token;
}

function parseOperators(text: string | undefined): number[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((part) => {
    const id = Number(part.trim());
    if (!Number.isSafeInteger(id) || id < 1)
      throw new JobCliError(`--operators: ${part} is not an operator id`);
    return id;
  });
}

/** Polls the job until it ends, drawing its progress; cancels it once if the user interrupts. */
export async function follow(api: JobApi, first: CurationJob, io: JobCliIo): Promise<CurationJob> {
  let job = first;
  // An object, not a boolean: the listener sets it later, between polls.
  const interrupt = { asked: false };
  io.onInterrupt(() => {
    interrupt.asked = true;
  });
  let cancelSent = false;
  let lastLine = '';
  for (;;) {
    const line = progressLine(job);
    if (io.interactive) io.write(`\r${line}\u001b[K`);
    else if (line !== lastLine) io.write(`${line}\n`);
    lastLine = line;
    if (!RUNNING_STATES.includes(job.state)) break;
    if (interrupt.asked && !cancelSent) {
      cancelSent = true;
      io.write(`${io.interactive ? '\n' : ''}Cancelling job ${job.id}…\n`);
      job = await api.call('POST', `/curation-job/${job.id}/cancel`).catch((error: unknown) => {
        io.write(`${error instanceof Error ? error.message : String(error)}\n`);
        return job;
      });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, io.pollMs));
    job = await api.call('GET', `/curation-job/${job.id}`);
  }
  if (io.interactive) io.write('\n');
  io.write(`Job ${job.id} ${job.state}${job.message === null ? '' : `: ${job.message}`}\n`);
  return job;
}

/** `scriptorium job …`; answers the process's exit code (0 when the job ended well, 1 when not, 2 usage). */
export async function runJobCommand(argv: readonly string[], io: JobCliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      view: { type: 'string' },
      context: { type: 'string' },
      kind: { type: 'string' },
      scope: { type: 'string' },
      query: { type: 'string' },
      operators: { type: 'string' },
      apply: { type: 'boolean' },
      server: { type: 'string' },
      username: { type: 'string' },
    },
  });
  const [command, idText] = positionals;
  try {
    const base = serverOf(io, values.server);
    if (command === 'run') {
      if (values.view === undefined || values.context === undefined || values.kind === undefined) {
        io.write(`job run needs --view, --context and --kind\n${JOB_USAGE}\n`);
        return 2;
      }
      const api = new JobApi(base, await tokenOf(io, base, values.username), io.fetch);
      const kind = values.kind.toUpperCase();
      const created = await api.call('POST', '/curation-job', {
        repositoryViewId: Number(values.view),
        contextUri: values.context,
        scope: (values.scope ?? (values.query === undefined ? 'SUBTREE' : 'QUERY')).toUpperCase(),
        ...(values.query !== undefined && { query: values.query }),
        kind,
        operators: parseOperators(values.operators),
        dryRun: values.apply !== true,
      });
      io.write(`Started ${created.kind} job ${created.id}\n`);
      const ended = await follow(api, created, io);
      return FAILED.includes(ended.state) ? 1 : 0;
    }
    if (command === 'apply' || command === 'undo' || command === 'cancel' || command === 'show') {
      const id = Number(idText);
      if (!Number.isSafeInteger(id) || id < 1) {
        io.write(`job ${command} needs a job id\n${JOB_USAGE}\n`);
        return 2;
      }
      const api = new JobApi(base, await tokenOf(io, base, values.username), io.fetch);
      const job =
        command === 'show'
          ? await api.call('GET', `/curation-job/${id}`)
          : await api.call('POST', `/curation-job/${id}/${command}`);
      const ended = command === 'show' ? job : await follow(api, job, io);
      if (command === 'show') io.write(`${progressLine(job)}\n${job.message ?? ''}\n`);
      return FAILED.includes(ended.state) ? 1 : 0;
    }
    io.write(`${JOB_USAGE}\n`);
    return 2;
  } catch (error) {
    if (error instanceof JobCliError) {
      io.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
