import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { digestWorkers, type DigestWorkers, type WorkerChannel, type WorkerReply } from './digest-workers.js';

/** Bytes handed to the worker at a time; content up to this size never leaves the event loop. */
export const BATCH_BYTES = 1024 * 1024;
/** Batches the worker may have unfinished before the upload waits (memory per upload stays ≈ 5 MiB). */
const MAX_IN_FLIGHT = 4;

export interface SinkResult {
  readonly size: number;
  /** Hex digests by Node hash name. */
  readonly digests: Map<string, string>;
}

/**
 * Where an upload's bytes go: each byte is hashed once (every algorithm asked for) and written once to
 * an open temporary file. Chunks are copied into 1 MiB batches; content that fits in the first batch is
 * hashed and written here, anything larger is handed to a digest worker batch by batch, which hashes and
 * writes it while the event loop receives the next bytes. `push` waits while the worker is
 * MAX_IN_FLIGHT batches behind, so a fast client is slowed to the worker's pace instead of filling memory.
 */
export class ContentSink {
  private batch: Uint8Array | undefined;
  private filled = 0;
  private readonly spare: Uint8Array[] = [];
  private inFlight = 0;
  private channel: WorkerChannel | undefined;
  private failure: Error | undefined;
  private result: SinkResult | undefined;
  private aborted = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly handle: FileHandle,
    private readonly algorithms: readonly string[],
    private readonly workers: DigestWorkers = digestWorkers,
  ) {}

  async push(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      // A full batch goes only once more bytes come: content of exactly one batch stays here.
      if (this.filled === BATCH_BYTES) await this.dispatch();
      this.batch ??= this.spare.pop() ?? new Uint8Array(BATCH_BYTES);
      const take = Math.min(chunk.length - offset, BATCH_BYTES - this.filled);
      this.batch.set(chunk.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
    }
  }

  /** Hashes and writes what is left; resolves once every byte is in the file (not yet fsynced). */
  async finish(): Promise<SinkResult> {
    if (this.channel === undefined) return this.finishHere();
    if (this.filled > 0) this.send();
    this.channel.post({ type: 'end' });
    while (this.result === undefined) await this.next();
    this.channel.release();
    this.channel = undefined;
    return this.result;
  }

  /**
   * Gives up: once this resolves the worker no longer writes to the file, so it may be closed and
   * removed. Safe to call at any point, also after a failure.
   */
  async abort(): Promise<void> {
    const channel = this.channel;
    if (channel === undefined) return;
    this.channel = undefined;
    channel.post({ type: 'abort' });
    try {
      while (!this.aborted) await this.next();
    } catch {
      // The job failed: the worker is done with the file as well.
    }
    channel.release();
  }

  /** Small content: hashed and written on the event loop, no worker involved. */
  private async finishHere(): Promise<SinkResult> {
    const bytes = (this.batch ?? new Uint8Array(0)).subarray(0, this.filled);
    const digests = new Map(
      this.algorithms.map((name) => [name, createHash(name).update(bytes).digest('hex')]),
    );
    let written = 0;
    while (written < bytes.length) {
      written += (await this.handle.write(bytes, written, bytes.length - written, written)).bytesWritten;
    }
    return { size: bytes.length, digests };
  }

  private async dispatch(): Promise<void> {
    if (this.channel === undefined) {
      this.channel = this.workers.open((reply) => {
        this.receive(reply);
      });
      this.channel.post({ type: 'start', fd: this.handle.fd, algorithms: this.algorithms });
    }
    this.send();
    while (this.inFlight >= MAX_IN_FLIGHT) await this.next();
  }

  private send(): void {
    const batch = this.batch;
    if (batch === undefined || this.channel === undefined) return;
    if (this.failure !== undefined) throw this.failure;
    const buffer = batch.buffer as ArrayBuffer;
    this.channel.post({ type: 'data', buffer, length: this.filled }, [buffer]);
    this.inFlight++;
    this.batch = undefined;
    this.filled = 0;
  }

  private receive(reply: WorkerReply): void {
    switch (reply.type) {
      case 'ack':
        this.inFlight--;
        this.spare.push(new Uint8Array(reply.buffer));
        break;
      case 'done':
        this.result = {
          size: reply.size,
          digests: new Map(this.algorithms.map((name, i) => [name, reply.digests[i] ?? ''])),
        };
        break;
      case 'aborted':
        this.aborted = true;
        break;
      case 'error':
        this.failure = Object.assign(new Error(reply.message), { code: reply.code });
        // A failed job is over in the worker: nothing more is written, so an abort need not wait.
        this.aborted = true;
        break;
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Waits for the worker's next reply; a failure of the job is thrown. */
  private async next(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    await new Promise<void>((resolve) => (this.wake = resolve));
  }
}
