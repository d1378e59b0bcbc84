import { createWriteStream, openAsBlob } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Api } from '../context/api.js';
import { settle, type JobJson } from '../jobs/jobs-api.js';
import { peakRssKiB, resetPeakRss, rssNowKiB } from '../shared/proc-stat.js';

/**
 * The measured phases of `npm run bench:spreadsheet`, each against the service process (`pid`): the export
 * streamed to a file, its floor (the bare SUBTREE walk, run inside the service: floor-service.ts), a sheet
 * imported as a SPREADSHEET preview, and its floor (a MAPPING preview of the same resources).
 */
const MIB = 1024;

export interface Measured<T> {
  readonly ms: number;
  /** The service's peak resident memory during the phase, MiB (VmHWM reset before it, else sampled). */
  readonly peakRssMiB: number;
  readonly value: T;
}

/** Runs `work` (which answers its own duration in ms) and reads the service's peak RSS meanwhile. */
export async function withPeakRss<T>(
  pid: number,
  work: () => Promise<{ ms: number; value: T }>,
): Promise<Measured<T>> {
  const exact = resetPeakRss(pid);
  let sampled = rssNowKiB(pid);
  const sampler = exact
    ? undefined
    : setInterval(() => {
        sampled = Math.max(sampled, rssNowKiB(pid));
      }, 20);
  try {
    const { ms, value } = await work();
    const peak = exact ? peakRssKiB(pid) : Math.max(sampled, rssNowKiB(pid));
    return { ms, peakRssMiB: Math.round(peak / MIB), value };
  } finally {
    clearInterval(sampler);
  }
}

/** GET …/export of the context's SUBTREE, streamed into `file`; answers the bytes written. */
export async function exportTo(
  api: Api,
  prefix: string,
  contextUri: string,
  file: string,
): Promise<{ ms: number; value: number }> {
  const params = new URLSearchParams({ contextUri, scope: 'SUBTREE', format: 'csv' });
  const began = performance.now();
  const response = await fetch(`${api.url}${prefix}/export?${params.toString()}`, { headers: api.auth });
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/csv') || response.body === null)
    throw new Error(
      `the export answered ${response.status} ${type}: ${(await response.text()).slice(0, 500)}`,
    );
  let bytes = 0;
  await pipeline(
    Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>),
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        bytes += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(file),
  );
  return { ms: performance.now() - began, value: bytes };
}

/** The export's floor: the same SUBTREE walk inside the service, keeping nothing (floor-service.ts). */
export async function walkFloor(
  floorUrl: string,
  contextUri: string,
): Promise<{ ms: number; value: number }> {
  const response = await fetch(`${floorUrl}/?contextUri=${encodeURIComponent(contextUri)}`);
  const text = await response.text();
  if (!response.ok) throw new Error(`the floor walk answered ${response.status}: ${text.slice(0, 500)}`);
  const walked = JSON.parse(text) as { ms: number; described: number; failed: number };
  if (walked.failed !== 0) throw new Error(`the floor walk could not describe ${walked.failed} resources`);
  return { ms: walked.ms, value: walked.described };
}

/**
 * A SPREADSHEET job previewing `file` (multipart, streamed from disk), timed from just before the upload to
 * the job's `finished`: the sheet is parsed, checked and staged while the upload is answered, then the run
 * reads the staged rows against their resources.
 */
export async function importPreview(
  api: Api,
  viewId: number,
  contextUri: string,
  file: string,
): Promise<{ ms: number; value: JobJson & { uploadMs: number } }> {
  const form = new FormData();
  form.set('repositoryViewId', String(viewId));
  form.set('contextUri', contextUri);
  form.set('kind', 'SPREADSHEET');
  form.set('dryRun', 'true');
  form.set('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
  const began = Date.now();
  // redirect 'error': else fetch keeps a tee of the body, the whole file, in this process's memory.
  const response = await fetch(`${api.url}/curation-job`, {
    method: 'POST',
    headers: api.auth,
    body: form,
    redirect: 'error',
  });
  const uploadMs = Date.now() - began;
  const envelope = (await response.json()) as {
    meta: { status: string; message: string };
    payload: { CurationJob?: JobJson; ValidationResults?: unknown };
  };
  const created = envelope.payload.CurationJob;
  if (envelope.meta.status !== 'SUCCESS' || created === undefined)
    throw new Error(`the import was refused: ${JSON.stringify(envelope).slice(0, 800)}`);
  const job = await settle(api, created.id, 'PREVIEWED');
  return { ms: job.finished! - began, value: { ...job, uploadMs } };
}

/** The import's floor: a MAPPING preview of the context's SUBTREE with the given operators. */
export async function mappingPreview(
  api: Api,
  viewId: number,
  contextUri: string,
  operators: readonly number[],
): Promise<{ ms: number; value: JobJson }> {
  const began = Date.now();
  const created = (
    await api.call('POST', '/curation-job', {
      repositoryViewId: viewId,
      contextUri,
      scope: 'SUBTREE',
      kind: 'MAPPING',
      operators,
      dryRun: true,
    })
  ).payload.CurationJob as JobJson;
  const job = await settle(api, created.id, 'PREVIEWED');
  return { ms: job.finished! - began, value: job };
}
