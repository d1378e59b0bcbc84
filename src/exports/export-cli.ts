import { createWriteStream } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
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

export const EXPORT_BAG_USAGE = `  scriptorium export-bag <view id> <context IRI> <file> [--scope RESOURCE|CHILDREN|SUBTREE|QUERY|MEMBERS]
                         [--query <q>] [--zip]
      Starts an EXPORT job writing a BagIt bag of the scope (default SUBTREE), shows its progress, and
      downloads the bag to <file> as a tar (--zip: a zip). Same --server and sign-in as the job commands.`;

/** A download that receives nothing for this long is given up (the service streams as it reads files). */
const IDLE_MS = 120_000;

/** `scriptorium export-bag …`; answers the exit code (0 downloaded, 1 failed, 2 usage). */
export async function runExportBagCommand(argv: readonly string[], io: JobCliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        scope: { type: 'string' },
        query: { type: 'string' },
        zip: { type: 'boolean' },
        server: { type: 'string' },
        username: { type: 'string' },
      },
    });
  } catch (error) {
    io.write(`${error instanceof Error ? error.message : String(error)}\n${EXPORT_BAG_USAGE}\n`);
    return 2;
  }
  const { positionals, values } = parsed;
  const [viewText, contextUri, file] = positionals;
  const viewId = Number(viewText);
  if (!Number.isSafeInteger(viewId) || viewId < 1 || contextUri === undefined || file === undefined) {
    io.write(`export-bag needs a view id, a context IRI and a file\n${EXPORT_BAG_USAGE}\n`);
    return 2;
  }
  try {
    const base = serverOf(io, values.server);
    const token = await tokenOf(io, base, values.username);
    const api = new JobApi(base, token, io.fetch);
    const created = await api.call('POST', '/curation-job', {
      repositoryViewId: viewId,
      contextUri,
      scope: (values.scope ?? (values.query === undefined ? 'SUBTREE' : 'QUERY')).toUpperCase(),
      ...(values.query !== undefined && { query: values.query }),
      kind: 'EXPORT',
      format: 'BAGIT',
      dryRun: false,
    });
    io.write(`Started EXPORT job ${created.id}\n`);
    const ended = await follow(api, created, io);
    if (ended.state !== 'COMPLETED') return 1;
    const bytes = await download(io, base, token, ended.id, values.zip === true, file);
    io.write(`Downloaded the bag of job ${ended.id} (${bytes} bytes) to ${file}\n`);
    return 0;
  } catch (error) {
    if (error instanceof JobCliError) {
      io.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * Streams the bag into `file`: written beside it under a temporary name and renamed when complete, so a
 * download cut short leaves neither a partial bag nor a clobbered earlier file. Answers the bytes written.
 */
async function download(
  io: JobCliIo,
  base: string,
  token: string,
  jobId: number,
  zip: boolean,
  file: string,
): Promise<number> {
  const controller = new AbortController();
  let idle = setTimeout(() => {
    controller.abort();
  }, IDLE_MS);
  const awake = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      controller.abort();
    }, IDLE_MS);
  };
  const url = new URL(`/curation-job/${jobId}/download${zip ? '?format=zip' : ''}`, base);
  let response: Response;
  try {
    response = await io.fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
  } catch (error) {
    clearTimeout(idle);
    throw new JobCliError(
      `Cannot reach the service at ${base}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || type.startsWith('application/json') || response.body === null) {
    clearTimeout(idle);
    const text = await response.text();
    try {
      throw new JobCliError(describeRefusal(JSON.parse(text) as Envelope));
    } catch (error) {
      if (error instanceof JobCliError) throw error;
      throw new JobCliError(`The download answered HTTP ${response.status}`);
    }
  }
  const target = path.resolve(file);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.part`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      awake();
      done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial),
    );
    await rename(partial, target);
  } catch (error) {
    await unlink(partial).catch(() => undefined);
    const why = controller.signal.aborted ? `nothing arrived for ${IDLE_MS / 1000} s` : String(error);
    throw new JobCliError(`The download broke off after ${bytes} bytes (${why}); no file was written`);
  } finally {
    clearTimeout(idle);
  }
  return bytes;
}
