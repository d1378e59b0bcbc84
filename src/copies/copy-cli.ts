import { rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { JOB_SCOPES } from '../curation-jobs/curation-job.js';
import {
  describeRefusal,
  follow,
  JobApi,
  JobCliError,
  request,
  serverOf,
  tokenOf,
  type Envelope,
  type JobCliIo,
} from '../curation-jobs/job-cli.js';
import type { CopyResult } from './job-copies.js';

export const COPY_USAGE = `  scriptorium copy <source view id> <context IRI> <target view id> <target context IRI>
                   [--scope RESOURCE|CHILDREN|SUBTREE|QUERY|MEMBERS] [--query <q>] [--apply]
                   [--report <file.csv|file.json>]
      Plans a COPY job (a dry run: what would be copied, its bytes and its conflicts) of the scope (default
      SUBTREE, or QUERY with --query) from the source view into the target container of the target view
      (an IRI, or a path relative to the target view's root); --apply then copies it, showing its progress.
      The per-resource report is written to --report (CSV or JSON by its extension), else printed. Versions
      are not copied, only each resource's current state. Exit code 1 when the job fails, a resource fails
      or the dry run finds conflicts. Same --server and sign-in as the job commands.`;

/** Rows read per report request (the service pages its lists up to 1000). */
const REPORT_PAGE = 500;

interface CopyArguments {
  readonly sourceViewId: number;
  readonly contextUri: string;
  readonly targetViewId: number;
  readonly targetContextUri: string;
  readonly scope: string;
  readonly query: string | undefined;
  readonly apply: boolean;
  readonly report: { readonly file: string; readonly format: 'csv' | 'json' } | undefined;
  readonly server: string | undefined;
  readonly username: string | undefined;
}

class UsageError extends Error {}

/** `scriptorium copy …`; answers the exit code (0 done, 1 failed or conflicts, 2 usage). */
export async function runCopyCommand(argv: readonly string[], io: JobCliIo): Promise<number> {
  let args: CopyArguments;
  try {
    args = parseCopyArguments(argv);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    io.write(`${text}\n${COPY_USAGE}\n`);
    return 2;
  }
  try {
    const base = serverOf(io, args.server);
    const token = await tokenOf(io, base, args.username);
    const api = new JobApi(base, token, io.fetch);
    // Always a dry run first: its numbers and conflicts are shown before anything is written.
    const created = await api.call('POST', '/curation-job', {
      repositoryViewId: args.sourceViewId,
      contextUri: args.contextUri,
      scope: args.scope,
      ...(args.query !== undefined && { query: args.query }),
      kind: 'COPY',
      targetRepositoryViewId: args.targetViewId,
      targetContextUri: args.targetContextUri,
      dryRun: true,
    });
    io.write(`Started COPY job ${created.id} (dry run)\n`);
    const planned = await follow(api, created, io);
    if (planned.state !== 'PREVIEWED') return 1;
    const plan = await readReport(io, base, token, planned.id);
    const conflicts = plan.filter((row) => row.outcome === 'CONFLICT' || row.outcome === 'UNREADABLE');
    // Printed here only when the report goes to a file: a printed report lists them anyway.
    if (args.report !== undefined)
      for (const row of conflicts) io.write(`${row.outcome}: ${row.error ?? row.targetUri}\n`);
    let ended = planned;
    if (args.apply && conflicts.length === 0) {
      io.write(`Applying COPY job ${planned.id}\n`);
      ended = await follow(api, await api.call('POST', `/curation-job/${planned.id}/apply`), io);
    } else if (args.apply) {
      io.write(`Not applied: the target holds ${conflicts.length} of the planned resources already\n`);
    } else {
      io.write(`Apply it with: scriptorium job apply ${planned.id}\n`);
    }
    const rows = ended === planned ? plan : await readReport(io, base, token, ended.id);
    if (args.report === undefined) {
      for (const row of rows) io.write(`${reportLine(row)}\n`);
    } else {
      const bytes = await writeReport(io, base, token, ended.id, args.report, rows);
      io.write(
        `Wrote the report of job ${ended.id} (${rows.length} rows, ${bytes} bytes) to ${args.report.file}\n`,
      );
    }
    const failed = rows.some((row) => row.outcome === 'FAILED');
    const good = ended.state === (args.apply ? 'APPLIED' : 'PREVIEWED');
    return good && !failed && conflicts.length === 0 ? 0 : 1;
  } catch (error) {
    if (error instanceof JobCliError) {
      io.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function parseCopyArguments(argv: readonly string[]): CopyArguments {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      scope: { type: 'string' },
      query: { type: 'string' },
      apply: { type: 'boolean' },
      report: { type: 'string' },
      server: { type: 'string' },
      username: { type: 'string' },
    },
  });
  if (positionals.length !== 4)
    throw new UsageError(
      'copy needs a source view id, a context IRI, a target view id and a target context IRI',
    );
  const [sourceText, contextUri, targetText, targetContextUri] = positionals as [
    string,
    string,
    string,
    string,
  ];
  const viewId = (text: string, what: string) => {
    const id = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(id) || id < 1)
      throw new UsageError(`The ${what} view id must be a positive integer, not ${text}`);
    return id;
  };
  const scope = (values.scope ?? (values.query === undefined ? 'SUBTREE' : 'QUERY')).toUpperCase();
  if (!(JOB_SCOPES as readonly string[]).includes(scope))
    throw new UsageError(`--scope must be one of ${JOB_SCOPES.join(', ')}, not ${values.scope}`);
  if (scope === 'QUERY' && (values.query === undefined || values.query.trim() === ''))
    throw new UsageError('--scope QUERY needs --query <q>');
  let report: CopyArguments['report'];
  if (values.report !== undefined) {
    const extension = path.extname(values.report).toLowerCase();
    if (extension !== '.csv' && extension !== '.json')
      throw new UsageError(`--report must name a .csv or .json file, not ${values.report}`);
    report = { file: values.report, format: extension === '.csv' ? 'csv' : 'json' };
  }
  return {
    sourceViewId: viewId(sourceText, 'source'),
    contextUri,
    targetViewId: viewId(targetText, 'target'),
    targetContextUri,
    scope,
    query: values.query,
    apply: values.apply === true,
    report,
    server: values.server,
    username: values.username,
  };
}

/** Every row of a COPY job's report, in plan order. */
async function readReport(io: JobCliIo, base: string, token: string, id: number): Promise<CopyResult[]> {
  const rows: CopyResult[] = [];
  for (let offset = 0; ; offset += REPORT_PAGE) {
    const envelope = await request(
      io.fetch,
      base,
      'GET',
      `/curation-job/${id}/report?offset=${offset}&limit=${REPORT_PAGE}`,
      token,
    );
    const page = envelope.payload['ArrayList<CopyResult>'] as CopyResult[] | undefined;
    if (page === undefined) throw new JobCliError(`The report of job ${id} holds no CopyResult list`);
    rows.push(...page);
    if (page.length < REPORT_PAGE) return rows;
  }
}

/** One report row for a terminal: outcome, kind, source → target, the digest check and any error. */
export function reportLine(row: CopyResult): string {
  const digest = row.digestCheck === null ? '' : ` ${row.digestAlgorithm ?? 'digest'} ${row.digestCheck}`;
  const size = row.bytes === null ? '' : ` ${row.bytes} bytes`;
  const error = row.error === null ? '' : ` (${row.error})`;
  return `${row.outcome.padEnd(10)} ${row.kind.padEnd(9)} ${row.sourceUri} -> ${row.targetUri}${size}${digest}${error}`;
}

/**
 * Writes the report beside `file` under a temporary name and renames it when complete, so a report cut
 * short never clobbers an earlier one. CSV is the service's own (its header and quoting); JSON the rows.
 */
async function writeReport(
  io: JobCliIo,
  base: string,
  token: string,
  id: number,
  report: NonNullable<CopyArguments['report']>,
  rows: readonly CopyResult[],
): Promise<number> {
  const text =
    report.format === 'json' ? `${JSON.stringify(rows, null, 2)}\n` : await csvOf(io, base, token, id);
  const target = path.resolve(report.file);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.part`);
  try {
    await writeFile(partial, text);
    await rename(partial, target);
  } catch (error) {
    await unlink(partial).catch(() => undefined);
    throw new JobCliError(
      `Cannot write the report to ${report.file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return Buffer.byteLength(text);
}

async function csvOf(io: JobCliIo, base: string, token: string, id: number): Promise<string> {
  let response: Response;
  try {
    response = await io.fetch(new URL(`/curation-job/${id}/report?format=csv`, base), {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new JobCliError(
      `Cannot reach the service at ${base}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = await response.text();
  if (!response.ok || (response.headers.get('content-type') ?? '').startsWith('application/json')) {
    try {
      throw new JobCliError(describeRefusal(JSON.parse(text) as Envelope));
    } catch (error) {
      if (error instanceof JobCliError) throw error;
      throw new JobCliError(`The report answered HTTP ${response.status}`);
    }
  }
  return text;
}
