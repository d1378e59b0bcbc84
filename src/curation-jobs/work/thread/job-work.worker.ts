import { parentPort } from 'node:worker_threads';
import { AgentPool } from '../../../repository-adapters/agent-pool.js';
import { createAdapter } from '../../../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../../repository-adapters/repository-adapter.js';
import type { JobTarget, RunItem, RunSink, WriteSink } from '../job-work.js';
import { runScope } from '../run-scope.js';
import { writeChanges } from '../write-changes.js';
import { RelayedTransport } from './relayed-transport.js';
import {
  fromWireChange,
  isRelayAnswer,
  toWireItem,
  wireError,
  type FromWorker,
  type ToWorker,
  type WorkerConnection,
  type WriteSinkCall,
} from './thread-protocol.js';

/**
 * The curation jobs' worker thread (`threaded-job-work.ts` starts it): runs a job's work — reading the
 * scope, the operators, the diff, the writes — with its own adapters, off the thread that serves HTTP
 * (and, on the embedded repository, answers the very requests the work sends). Everything the runner
 * owns (the database, leases, counts) stays on the service's thread; each sink call is a message.
 */

/** Records in flight to the service's thread before the walk waits for their acknowledgement. */
const RECORD_WINDOW = 128;

const port = parentPort;
if (port === null) throw new Error('job-work.worker.ts runs as a worker thread');

const post = (message: FromWorker): void => {
  port.postMessage(message);
};
const agents = new AgentPool();
const relay = new RelayedTransport(post);

/** One run's channel back: acknowledgements by sequence number, and whether a cancel arrived. */
class RunChannel {
  cancelled = false;
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  /** Records sent and not yet acknowledged, oldest first (they are acknowledged in order). */
  private readonly unacknowledged: Promise<void>[] = [];
  private failure: Error | undefined;

  constructor(readonly runId: number) {}

  /** Sends a call and resolves once the service's thread answered it. */
  call(message: (seq: number) => FromWorker): Promise<void> {
    const seq = ++this.seq;
    const answered = new Promise<void>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
    });
    post(message(seq));
    return answered;
  }

  /**
   * Sends a record without waiting for it, up to RECORD_WINDOW at once: the service's thread stores them
   * in order, and its first failure fails the next record (the run then ends, as with a failing sink).
   */
  async record(item: RunItem): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    const acknowledged = this.call((seq) => ({
      type: 'record',
      runId: this.runId,
      seq,
      item: toWireItem(item),
    })).then(
      () => {
        void this.unacknowledged.shift();
      },
      (error: unknown) => {
        void this.unacknowledged.shift();
        this.failure ??= error instanceof Error ? error : new Error(String(error));
      },
    );
    this.unacknowledged.push(acknowledged);
    if (this.unacknowledged.length >= RECORD_WINDOW) await this.unacknowledged[0];
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Every record acknowledged; rejects with the first failure. */
  async settled(): Promise<void> {
    await Promise.all([...this.unacknowledged]);
    this.throwIfFailed();
  }

  acknowledge(seq: number, error: string | undefined): void {
    const waiting = this.waiting.get(seq);
    this.waiting.delete(seq);
    if (error === undefined) waiting?.resolve();
    else waiting?.reject(new Error(error));
  }
}

const channels = new Map<number, RunChannel>();
/** Adapters kept per connection, as the service keeps its own: they remember where triples are PATCHed. */
const adapters = new Map<string, RepositoryAdapter>();

function adapterFor(runId: number, connection: WorkerConnection): RepositoryAdapter {
  const key = JSON.stringify(connection);
  let adapter = adapters.get(key);
  if (adapter === undefined) {
    const { inProcess, reportsDetection, ...view } = connection;
    const transport = relay.forRun(runId);
    adapter = createAdapter(
      {
        ...view,
        ...(reportsDetection && {
          onDetected: (dialect) => {
            post({ type: 'detected', runId, dialect });
          },
        }),
      },
      { agents, ...(inProcess && { local: { transportFor: () => transport } }) },
    );
    // A relayed adapter is tied to the run that opened it (its requests name that run): not kept.
    if (!inProcess && !reportsDetection) adapters.set(key, adapter);
  }
  return adapter;
}

async function handle(message: ToWorker): Promise<void> {
  if (isRelayAnswer(message)) {
    relay.receive(message);
    return;
  }
  switch (message.type) {
    case 'cancel': {
      const channel = channels.get(message.runId);
      if (channel !== undefined) channel.cancelled = true;
      return;
    }
    case 'ack':
      channels.get(message.runId)?.acknowledge(message.seq, message.error);
      return;
    case 'run':
    case 'write':
      await start(message);
      return;
  }
}

async function start(message: Extract<ToWorker, { type: 'run' | 'write' }>): Promise<void> {
  const { runId } = message;
  const channel = new RunChannel(runId);
  channels.set(runId, channel);
  try {
    const target: JobTarget = {
      adapter: adapterFor(runId, message.connection),
      schemas: message.schemas,
      rootUri: message.rootUri,
    };
    if (message.type === 'run') {
      const sink: RunSink = {
        done: new Set(message.done),
        found: (count) => {
          post({ type: 'found', runId, count });
        },
        record: (item) => channel.record(item),
        cancelled: () => channel.cancelled,
      };
      const outcome = await runScope(message.request, target, sink);
      await channel.settled();
      post({ type: 'ran', runId, outcome });
    } else {
      const call = (name: WriteSinkCall) => (uris: readonly string[]) =>
        channel.call((seq) => ({ type: 'sink', runId, seq, call: name, uris: [...uris] }));
      const sink: WriteSink = {
        writing: call('writing'),
        written: call('written'),
        notWritten: call('notWritten'),
        cancelled: () => channel.cancelled,
      };
      const changes = message.changes.map(fromWireChange);
      const outcome = await writeChanges(target, changes, message.mode, sink, message.concurrency);
      post({ type: 'wrote', runId, outcome });
    }
  } catch (error) {
    post({ type: 'threw', runId, error: wireError(error) });
  } finally {
    channels.delete(runId);
  }
}

port.on('message', (message: ToWorker) => {
  handle(message).catch((error: unknown) => {
    // handle() reports a run's failures itself; anything else is a fault of this thread, which ends it
    // (the service's thread then fails the runs it held, with this reason).
    setImmediate(() => {
      throw error instanceof Error ? error : new Error(String(error));
    });
  });
});
