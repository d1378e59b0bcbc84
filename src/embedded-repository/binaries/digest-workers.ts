import os from 'node:os';
import { Worker, type Transferable } from 'node:worker_threads';

/** Plain JavaScript beside this module in src/ and in dist/ alike (see the worker's header). */
const WORKER = new URL('./digest-worker.js', import.meta.url);

/** What a digest worker answers about one job (see digest-worker.js). */
export type WorkerReply =
  | { readonly type: 'ack'; readonly id: number; readonly slot: number }
  | { readonly type: 'done'; readonly id: number; readonly size: number; readonly digests: string[] }
  | { readonly type: 'aborted'; readonly id: number }
  | { readonly type: 'error'; readonly id: number; readonly message: string; readonly code?: string };

/** One job's line to its worker: messages out, replies in through the listener given to `open`. */
export interface WorkerChannel {
  readonly id: number;
  post(message: Record<string, unknown>, transfer?: readonly Transferable[]): void;
  /** The job is over: its replies are no longer delivered; an idle worker may stop later. */
  release(): void;
}

interface Pooled {
  readonly worker: Worker;
  readonly listeners: Map<number, (reply: WorkerReply) => void>;
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * A small pool of digest worker threads shared by every binary store of the process: at most one per
 * CPU, started when first needed, each serving several jobs (a job goes to the least busy worker), and
 * stopped after a while without work. A worker holds the process open only while it has jobs.
 */
export class DigestWorkers {
  private readonly pool: Pooled[] = [];
  /** The worker of each open channel, so that a job's other channels can be placed beside it. */
  private readonly owners = new WeakMap<WorkerChannel, Pooled>();
  private nextId = 1;

  constructor(
    private readonly max = Math.max(1, os.availableParallelism()),
    private readonly idleMs = 30_000,
  ) {}

  /** How many workers run now (for tests). */
  get size(): number {
    return this.pool.length;
  }

  /**
   * A channel to a worker for one job. `apart`: channels of the same job whose work should run beside this
   * one's, on other threads; they share a worker only when the pool is full.
   */
  open(listener: (reply: WorkerReply) => void, apart: readonly WorkerChannel[] = []): WorkerChannel {
    const pooled = this.pick(new Set(apart.map((channel) => this.owners.get(channel))));
    const id = this.nextId++;
    if (pooled.listeners.size === 0) {
      if (pooled.idleTimer !== undefined) clearTimeout(pooled.idleTimer);
      pooled.idleTimer = undefined;
      pooled.worker.ref();
    }
    pooled.listeners.set(id, listener);
    const channel: WorkerChannel = {
      id,
      post: (message, transfer) => {
        pooled.worker.postMessage({ ...message, id }, transfer);
      },
      release: () => {
        if (!pooled.listeners.delete(id) || pooled.listeners.size > 0) return;
        pooled.worker.unref();
        pooled.idleTimer = setTimeout(() => {
          if (pooled.listeners.size === 0) void this.stop(pooled);
        }, this.idleMs);
        pooled.idleTimer.unref();
      },
    };
    this.owners.set(channel, pooled);
    return channel;
  }

  /** The thread id of the worker serving a channel (for tests: which jobs run side by side). */
  threadOf(channel: WorkerChannel): number | undefined {
    return this.owners.get(channel)?.worker.threadId;
  }

  /** Digests of a whole file, read and hashed in a worker (a missing file: the digests of nothing). */
  digestFile(file: string, algorithms: readonly string[]): Promise<{ size: number; digests: string[] }> {
    return new Promise((resolve, reject) => {
      const channel = this.open((reply) => {
        if (reply.type !== 'done' && reply.type !== 'error') return;
        channel.release();
        if (reply.type === 'done') resolve({ size: reply.size, digests: reply.digests });
        else reject(Object.assign(new Error(reply.message), { code: reply.code }));
      });
      channel.post({ type: 'file', file, algorithms });
    });
  }

  /** Stops every worker (jobs still running fail). */
  async close(): Promise<void> {
    await Promise.all([...this.pool].map((pooled) => this.stop(pooled)));
  }

  /** The least busy worker outside `busy` if idle, else a new one, else (pool full) the least busy. */
  private pick(busy: ReadonlySet<Pooled | undefined>): Pooled {
    const leastBusy = (candidates: Pooled[]) =>
      candidates.reduce<Pooled | undefined>(
        (best, pooled) => (best === undefined || pooled.listeners.size < best.listeners.size ? pooled : best),
        undefined,
      );
    const best = leastBusy(this.pool.filter((pooled) => !busy.has(pooled)));
    if (best !== undefined && (best.listeners.size === 0 || this.pool.length >= this.max)) return best;
    if (this.pool.length < this.max) return this.start();
    return leastBusy(this.pool) ?? this.start();
  }

  private start(): Pooled {
    // No execArgv: the worker is plain JavaScript and needs none of the process's loaders (tsx).
    const worker = new Worker(WORKER, { execArgv: [] });
    const pooled: Pooled = { worker, listeners: new Map(), idleTimer: undefined };
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      pooled.listeners.get(reply.id)?.(reply);
    });
    // A worker that dies fails its jobs, once its thread has ended (then none of its writes is still
    // running, so their files may be closed); the next job starts a new worker.
    let why: string | undefined;
    worker.on('error', (error) => {
      why = `digest worker failed: ${error.message}`;
    });
    worker.on('exit', (code) => {
      this.remove(pooled);
      for (const [id, listener] of pooled.listeners) {
        listener({ type: 'error', id, message: why ?? `digest worker exited with code ${code}` });
      }
      pooled.listeners.clear();
    });
    this.pool.push(pooled);
    return pooled;
  }

  private async stop(pooled: Pooled): Promise<void> {
    this.remove(pooled);
    if (pooled.idleTimer !== undefined) clearTimeout(pooled.idleTimer);
    await pooled.worker.terminate();
  }

  private remove(pooled: Pooled): void {
    const index = this.pool.indexOf(pooled);
    if (index !== -1) this.pool.splice(index, 1);
  }
}

/** The process's pool. */
export const digestWorkers = new DigestWorkers();
