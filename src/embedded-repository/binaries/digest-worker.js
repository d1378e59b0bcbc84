// @ts-check
/**
 * The body of a digest worker thread (see digest-workers.ts). Plain JavaScript importing only Node, so
 * that Node loads it as it is wherever the service runs: from src/ under vitest or tsx, and from dist/
 * (tsc copies it there with allowJs). Hashing 100 MiB costs about 200 ms of CPU (SHA-512 and SHA-256);
 * here it runs beside the event loop instead of on it.
 *
 * Messages (one worker serves several jobs, told apart by `id`; each job's messages arrive in order):
 * - `{ type: 'start', id, fd, algorithms, shared, slotBytes }`: a content write; `fd` is the open
 *   temporary file (file descriptors are process-wide), owned and closed by the main thread, or absent
 *   for a job that only hashes (an upload's digests are split over two workers, and one of them writes);
 *   `shared` a SharedArrayBuffer of slots of `slotBytes` the main thread fills.
 * - `{ type: 'data', id, slot, length }`: the next bytes are in that slot: hashed here while a thread of
 *   libuv's pool writes them at the job's position, then `{ type: 'ack', id, slot }` hands the slot back
 *   (the main thread fills it again once every job reading it has acknowledged it). Every SYNC_BYTES the
 *   file is fdatasynced in the background.
 * - `{ type: 'end', id }` → `{ type: 'done', id, size, digests }` (hex, in the order of `algorithms`).
 * - `{ type: 'abort', id }` → `{ type: 'aborted', id }`. 'done', 'aborted' and 'error' are answered only
 *   once no write or fdatasync of the job is running, so the main thread may then close the fd (a closed
 *   fd number can be reused by another file at once).
 * - `{ type: 'file', id, file, algorithms }` → `{ type: 'done', id, size, digests }`: digests of a whole
 *   file, read here (a missing file reports the digests of nothing, size 0).
 * A failure answers `{ type: 'error', id, message, code }` and ends the job.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { parentPort as port } from 'node:worker_threads';

/**
 * @typedef {{
 *   readonly fd: number | undefined,
 *   readonly shared: SharedArrayBuffer,
 *   readonly slotBytes: number,
 *   readonly hashes: import('node:crypto').Hash[],
 *   position: number,
 *   synced: number,
 *   syncing: boolean,
 *   pending: number,
 *   ending: 'end' | 'abort' | 'error' | undefined,
 *   failure: (Error & { code?: string }) | undefined,
 * }} Job
 *   A content write: bytes taken so far, flushed so far, and the writes and fdatasyncs under way.
 * @typedef {{
 *   type: 'start', id: number, fd?: number, algorithms: string[], shared: SharedArrayBuffer, slotBytes: number,
 * } | { type: 'data', id: number, slot: number, length: number }
 *   | { type: 'end' | 'abort', id: number }
 *   | { type: 'file', id: number, file: string, algorithms: string[] }} Message
 */

if (port === null) throw new Error('digest-worker.js runs as a worker thread');
const parentPort = port;

const READ_BYTES = 1024 * 1024;
// Written bytes are flushed to the disk in the background every SYNC_BYTES (one fdatasync at a time), so
// the disk works while the rest arrives and the final fsync finds little left to write.
const SYNC_BYTES = 8 * 1024 * 1024;
/** Files are read one at a time (synchronously), always into this buffer. */
const readBuffer = Buffer.allocUnsafe(READ_BYTES);
/** @type {Map<number, Job>} */
const jobs = new Map();

/**
 * @param {string} file
 * @param {readonly string[]} algorithms
 */
function digestFile(file, algorithms) {
  const hashes = algorithms.map((name) => createHash(name));
  let size = 0;
  let fd;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'ENOENT') throw error;
  }
  if (fd !== undefined) {
    try {
      for (;;) {
        const read = fs.readSync(fd, readBuffer, 0, READ_BYTES, null);
        if (read === 0) break;
        size += read;
        const bytes = readBuffer.subarray(0, read);
        for (const hash of hashes) hash.update(bytes);
      }
    } finally {
      fs.closeSync(fd);
    }
  }
  return { size, digests: hashes.map((hash) => hash.digest('hex')) };
}

/**
 * A job answers 'done', 'aborted' or 'error' only once nothing of it touches the file descriptor any more.
 * @param {number} id
 * @param {Job} job
 */
function settle(id, job) {
  if (job.pending > 0 || job.ending === undefined) return;
  jobs.delete(id);
  if (job.failure !== undefined) {
    parentPort.postMessage({
      type: 'error',
      id,
      message: job.failure.message,
      code: job.failure.code,
    });
  } else if (job.ending === 'abort') {
    parentPort.postMessage({ type: 'aborted', id });
  } else {
    const digests = job.hashes.map((hash) => hash.digest('hex'));
    parentPort.postMessage({ type: 'done', id, size: job.position, digests });
  }
}

/**
 * @param {number} id
 * @param {Job} job
 * @param {unknown} error
 */
function fail(id, job, error) {
  job.failure ??= asError(error);
  job.ending ??= 'error';
  settle(id, job);
}

/**
 * @param {number} id
 * @param {Job} job
 */
function flush(id, job) {
  if (job.fd === undefined || job.syncing || job.failure !== undefined || job.ending !== undefined) return;
  if (job.position - job.synced < SYNC_BYTES) return;
  job.syncing = true;
  job.pending++;
  const upTo = job.position;
  fs.fdatasync(job.fd, (error) => {
    job.syncing = false;
    job.pending--;
    if (error) {
      fail(id, job, error);
      return;
    }
    job.synced = upTo;
    settle(id, job);
  });
}

/**
 * The batch is written (by a thread of libuv's pool) while this thread hashes it; it is acknowledged, and
 * so handed back, when both are done. A job without a file only hashes.
 * @param {number} id
 * @param {Job} job
 * @param {number} slot
 * @param {number} length
 */
function take(id, job, slot, length) {
  const bytes = new Uint8Array(job.shared, slot * job.slotBytes, length);
  const position = job.position;
  job.position += length;
  const fd = job.fd;
  let waiting = fd === undefined ? 1 : 2;
  const done = () => {
    if (--waiting > 0) return;
    job.pending--;
    parentPort.postMessage({ type: 'ack', id, slot });
    flush(id, job);
    settle(id, job);
  };
  job.pending++;
  /** @param {number} offset */
  const write = (offset) => {
    if (fd === undefined) return;
    fs.write(fd, bytes, offset, length - offset, position + offset, (error, written) => {
      if (error) {
        job.failure ??= error;
        done();
        return;
      }
      if (offset + written < length) write(offset + written);
      else done();
    });
  };
  write(0);
  try {
    for (const hash of job.hashes) hash.update(bytes);
  } catch (error) {
    job.failure ??= asError(error);
  }
  done();
}

/**
 * @param {unknown} error
 * @returns {Error & { code?: string }}
 */
function asError(error) {
  return error instanceof Error ? error : new Error(String(error));
}

parentPort.on('message', (/** @type {Message} */ message) => {
  const { id } = message;
  const job = jobs.get(id);
  try {
    switch (message.type) {
      case 'start':
        jobs.set(id, {
          fd: message.fd,
          shared: message.shared,
          slotBytes: message.slotBytes,
          hashes: message.algorithms.map((name) => createHash(name)),
          position: 0,
          synced: 0,
          syncing: false,
          pending: 0,
          ending: undefined,
          failure: undefined,
        });
        break;
      case 'data':
        if (job === undefined) break;
        if (job.failure !== undefined) fail(id, job, job.failure);
        else take(id, job, message.slot, message.length);
        break;
      case 'end':
      case 'abort':
        if (job === undefined) {
          if (message.type === 'abort') parentPort.postMessage({ type: 'aborted', id });
          break;
        }
        job.ending = message.type;
        settle(id, job);
        break;
      case 'file':
        parentPort.postMessage({ type: 'done', id, ...digestFile(message.file, message.algorithms) });
        break;
    }
  } catch (error) {
    if (job !== undefined) fail(id, job, error);
    else {
      const { message: text, code } = asError(error);
      parentPort.postMessage({ type: 'error', id, message: text, code });
    }
  }
});
