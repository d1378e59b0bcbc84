import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { digestWorkers, type DigestWorkers, type WorkerChannel, type WorkerReply } from './digest-workers.js';

/** Bytes handed to the workers at a time; content up to this size never leaves the event loop. */
export const BATCH_BYTES = 1024 * 1024;
/** Batches in the memory shared with the workers: an upload waits while all are unfinished (4 MiB). */
const SLOTS = 4;
/**
 * Slot memory of finished uploads, kept for the next ones: a SharedArrayBuffer lives until every thread
 * has collected it, and a worker, allocating little, collects seldom; without reuse every large upload
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
 * The digests of a large upload in groups, each computed by its own worker beside the others: the first
 * asked for alone (the store asks for SHA-512 first, the content address and the dearest), the rest
 * together. On one worker, one after the other, they paced the upload by their sum (SHA-512 about 170 ms
 * per 100 MiB here, SHA-256 75 ms); side by side by the dearer one.
 */
export function digestGroups(algorithms: readonly string[]): string[][] {
  const [first, ...rest] = algorithms;
  return first === undefined || rest.length === 0 ? [[...algorithms]] : [[first], rest];
}

/** One worker's part of an upload: a group of digests, and for one of them the file's writes too. */
interface Lane {
  readonly channel: WorkerChannel;
  readonly algorithms: readonly string[];
  readonly writes: boolean;
  /** What the worker answered at the end: its size and digests (hex, in the order of `algorithms`). */
  done: { size: number; digests: readonly string[] } | undefined;
  /** The job is over in the worker (done, aborted or failed): it reads no slot and writes nothing more. */
  over: boolean;
}

/**
 * Where an upload's bytes go: each byte is hashed once for every algorithm asked for and written once to
 * an open temporary file. Content up to one batch is held as it came and hashed and written here.
 * Anything larger goes to digest workers, one per group of digests (`digestGroups`), side by side: chunks
 * are copied into batch slots of a SharedArrayBuffer the workers see too, and only slot numbers travel
 * (transferring buffers instead made V8 count every batch as new external memory in both threads and
 * collect the main heap over and over). Every worker hashes the same slot for its own digests, one of them
 * also writes it; a slot is filled again once all have acknowledged it. The workers work on a batch while
 * the event loop receives the next; `push` waits while every slot is unfinished, so a fast client is
 * slowed to the slowest worker's pace instead of filling memory.
 */
export class ContentSink {
  /** Before a worker is needed: the chunks as they came. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The slots, over a SharedArrayBuffer once workers are needed. */
  private slots: Buffer = Buffer.alloc(0);
  private readonly free: number[] = [];
  /** How many lanes have yet to acknowledge each slot sent. */
  private readonly readers: number[] = [];
  private slot = -1;
  private filled = 0;
  private lanes: Lane[] = [];
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly handle: FileHandle,
    private readonly algorithms: readonly string[],
    private readonly workers: DigestWorkers = digestWorkers,
  ) {}

  async push(chunk: Buffer): Promise<void> {
    if (this.lanes.length === 0) {
      if (this.heldBytes + chunk.length <= BATCH_BYTES) {
        this.held.push(chunk);
        this.heldBytes += chunk.length;
        return;
      }
      this.startWorkers();
      const held = this.held;
      this.held = [];
      this.heldBytes = 0;
      for (const earlier of held) await this.copy(earlier);
    }
    await this.copy(chunk);
  }

  /** Hashes and writes what is left; resolves once every byte is in the file (not yet fsynced). */
  async finish(): Promise<SinkResult> {
    if (this.lanes.length === 0) return this.finishHere();
    if (this.filled > 0) this.send();
    for (const lane of this.lanes) lane.channel.post({ type: 'end' });
    while (this.lanes.some((lane) => lane.done === undefined)) await this.next();
    const digests = new Map<string, string>();
    let size = 0;
    for (const { algorithms, done, writes } of this.lanes) {
      algorithms.forEach((name, i) => digests.set(name, done?.digests[i] ?? ''));
      if (writes) size = done?.size ?? 0;
    }
    this.close();
    return { size, digests };
  }

  /**
   * Gives up: once this resolves no worker writes to the file or reads the slots any more, so the file may
   * be closed and removed. Safe to call at any point, also after a failure.
   */
  async abort(): Promise<void> {
    for (const lane of this.lanes) if (!lane.over) lane.channel.post({ type: 'abort' });
    while (this.lanes.some((lane) => !lane.over)) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    this.close();
  }

  /** Every job is over in its worker: the channels are released and the slot memory kept for another. */
  private close(): void {
    for (const lane of this.lanes) lane.channel.release();
    this.lanes = [];
    if (this.slots.buffer instanceof SharedArrayBuffer && spareMemory.length < MAX_SPARE) {
      spareMemory.push(this.slots.buffer);
    }
    this.slots = Buffer.alloc(0);
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

  /** A worker per group of digests, each on its own thread while the pool has room; the last writes. */
  private startWorkers(): void {
    const shared = spareMemory.pop() ?? new SharedArrayBuffer(SLOTS * BATCH_BYTES);
    this.slots = Buffer.from(shared);
    for (let slot = SLOTS - 1; slot >= 0; slot--) this.free.push(slot);
    const groups = digestGroups(this.algorithms);
    groups.forEach((algorithms, i) => {
      const channel = this.workers.open(
        (reply) => {
          this.receive(reply);
        },
        this.lanes.map((lane) => lane.channel),
      );
      // The last group is the cheapest to hash (SHA-512 comes first): its worker also writes.
      const writes = i === groups.length - 1;
      this.lanes.push({ channel, algorithms, writes, done: undefined, over: false });
      channel.post({
        type: 'start',
        ...(writes ? { fd: this.handle.fd } : {}),
        algorithms,
        shared,
        slotBytes: BATCH_BYTES,
      });
    });
  }

  /** Copies a chunk into slots, handing each full one to the workers; waits for a free slot when needed. */
  private async copy(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.slot === -1) {
        while (this.free.length === 0) await this.next();
        this.slot = this.free.pop() ?? -1;
        this.filled = 0;
      }
      const take = Math.min(chunk.length - offset, BATCH_BYTES - this.filled);
      const at = this.slot * BATCH_BYTES + this.filled;
      // Not `slots.set(bytes, at)`: into shared memory V8 copies with relaxed atomics, byte by byte when
      // source and target are aligned differently, as body chunks of any length make them (about 65 ms
      // of the event loop per 100 MiB, a third of its time in an upload). Filling the range with a buffer
      // of exactly its length is one native memcpy (about 6 ms).
      this.slots.fill(chunk.subarray(offset, offset + take), at, at + take);
      this.filled += take;
      offset += take;
      if (this.filled === BATCH_BYTES) this.send();
    }
  }

  private send(): void {
    if (this.failure !== undefined) throw this.failure;
    this.readers[this.slot] = this.lanes.length;
    for (const lane of this.lanes) lane.channel.post({ type: 'data', slot: this.slot, length: this.filled });
    this.slot = -1;
    this.filled = 0;
  }

  private receive(reply: WorkerReply): void {
    const lane = this.lanes.find((candidate) => candidate.channel.id === reply.id);
    if (lane === undefined) return;
    switch (reply.type) {
      case 'ack': {
        const readers = (this.readers[reply.slot] ?? 1) - 1;
        this.readers[reply.slot] = readers;
        if (readers === 0) this.free.push(reply.slot);
        break;
      }
      case 'done':
        lane.done = { size: reply.size, digests: reply.digests };
        lane.over = true;
        break;
      case 'aborted':
        lane.over = true;
        break;
      case 'error':
        this.failure ??= Object.assign(new Error(reply.message), { code: reply.code });
        // A failed job is over in its worker: nothing more is written, so an abort need not wait for it.
        lane.over = true;
        break;
    }
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Waits for a worker's next reply; a failure of the job is thrown. */
  private async next(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    await new Promise<void>((resolve) => (this.wake = resolve));
  }
}
