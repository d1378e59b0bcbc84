import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { digestWorkers, type DigestWorkers, type WorkerChannel, type WorkerReply } from './digest-workers.js';

/** Bytes handed to the worker at a time; content up to this size never leaves the event loop. */
export const BATCH_BYTES = 1024 * 1024;
/** Batches in the memory shared with the worker: an upload waits while all are unfinished (4 MiB). */
const SLOTS = 4;
/**
 * Slot memory of finished uploads, kept for the next ones: a SharedArrayBuffer lives until both threads
 * have collected it, and the worker, allocating little, collects seldom; without reuse every large upload
 * left 4 MiB behind for a while.
 */
const spareMemory: SharedArrayBuffer[] = [];
const MAX_SPARE = 2;

export interface SinkResult {
  readonly size: number;
  /** Hex digests by Node hash name. */
  readonly digests: Map<string, string>;
}

/**
 * Where an upload's bytes go: each byte is hashed once (every algorithm asked for) and written once to
 * an open temporary file. Content up to one batch is held as it came and hashed and written here.
 * Anything larger goes to a digest worker: chunks are copied into batch slots of a SharedArrayBuffer the
 * worker sees too, and only slot numbers travel (transferring buffers instead made V8 count every batch
 * as new external memory in both threads and collect the main heap over and over). The worker hashes and
 * writes a batch while the event loop receives the next; `push` waits while every slot is unfinished, so
 * a fast client is slowed to the worker's pace instead of filling memory.
 */
export class ContentSink {
  /** Before a worker is needed: the chunks as they came. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The slots, over a SharedArrayBuffer once a worker is needed. */
  private slots: Uint8Array = new Uint8Array(0);
  private readonly free: number[] = [];
  private slot = -1;
  private filled = 0;
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
    if (this.channel === undefined) {
      if (this.heldBytes + chunk.length <= BATCH_BYTES) {
        this.held.push(chunk);
        this.heldBytes += chunk.length;
        return;
      }
      this.startWorker();
      const held = this.held;
      this.held = [];
      this.heldBytes = 0;
      for (const earlier of held) await this.copy(earlier);
    }
    await this.copy(chunk);
  }

  /** Hashes and writes what is left; resolves once every byte is in the file (not yet fsynced). */
  async finish(): Promise<SinkResult> {
    if (this.channel === undefined) return this.finishHere();
    if (this.filled > 0) this.send();
    this.channel.post({ type: 'end' });
    while (this.result === undefined) await this.next();
    this.close();
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
    this.close(channel);
  }

  /** The job is over in the worker: its channel is released and its slot memory kept for another. */
  private close(channel = this.channel): void {
    channel?.release();
    this.channel = undefined;
    if (this.slots.buffer instanceof SharedArrayBuffer && spareMemory.length < MAX_SPARE) {
      spareMemory.push(this.slots.buffer);
    }
    this.slots = new Uint8Array(0);
  }

  /** Small content: hashed and written on the event loop, no worker involved. */
  private async finishHere(): Promise<SinkResult> {
    const hashes = this.algorithms.map((name) => createHash(name));
    for (const chunk of this.held) for (const hash of hashes) hash.update(chunk);
    let buffers = this.held;
    let position = 0;
    while (buffers.length > 0) {
      let { bytesWritten } = await this.handle.writev(buffers, position);
      position += bytesWritten;
      const rest: Buffer[] = [];
      for (const buffer of buffers) {
        if (bytesWritten >= buffer.length) bytesWritten -= buffer.length;
        else {
          rest.push(buffer.subarray(bytesWritten));
          bytesWritten = 0;
        }
      }
      buffers = rest;
    }
    const digests = new Map(this.algorithms.map((name, i) => [name, hashes[i]?.digest('hex') ?? '']));
    return { size: this.heldBytes, digests };
  }

  private startWorker(): void {
    const shared = spareMemory.pop() ?? new SharedArrayBuffer(SLOTS * BATCH_BYTES);
    this.slots = new Uint8Array(shared);
    for (let slot = SLOTS - 1; slot >= 0; slot--) this.free.push(slot);
    this.channel = this.workers.open((reply) => {
      this.receive(reply);
    });
    this.channel.post({
      type: 'start',
      fd: this.handle.fd,
      algorithms: this.algorithms,
      shared,
      slotBytes: BATCH_BYTES,
    });
  }

  /** Copies a chunk into slots, handing each full one to the worker; waits for a free slot when needed. */
  private async copy(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.slot === -1) {
        while (this.free.length === 0) await this.next();
        this.slot = this.free.pop() ?? -1;
        this.filled = 0;
      }
      const take = Math.min(chunk.length - offset, BATCH_BYTES - this.filled);
      this.slots.set(chunk.subarray(offset, offset + take), this.slot * BATCH_BYTES + this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === BATCH_BYTES) this.send();
    }
  }

  private send(): void {
    if (this.failure !== undefined) throw this.failure;
    this.channel?.post({ type: 'data', slot: this.slot, length: this.filled });
    this.slot = -1;
    this.filled = 0;
  }

  private receive(reply: WorkerReply): void {
    switch (reply.type) {
      case 'ack':
        this.free.push(reply.slot);
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
