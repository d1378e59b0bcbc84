import type { Worker } from 'node:worker_threads';
import type { LocalRoutes } from '../../../repository-adapters/in-process-repository.js';
import { parseRoot } from '../../../repository-adapters/uri-confinement.js';
import type { DetectedDialect } from '../../../shared/fedora-dialect.js';
import type {
  JobTarget,
  RunOutcome,
  RunRequest,
  RunSink,
  StoredChange,
  WriteOutcome,
  WriteSink,
} from '../job-work.js';
import { runScope } from '../run-scope.js';
import { writeChanges } from '../write-changes.js';
import {
  errorOf,
  fromWireItem,
  isRelayRequest,
  toWireChange,
  type FromWorker,
  type ToWorker,
  type WireChange,
  type WorkerConnection,
} from './thread-protocol.js';
import { TransportRelay } from './transport-relay.js';
import { startJobWorker } from './start-job-worker.js';

/** How often a run in the worker is told of a cancel asked on this thread (the sink's `cancelled`). */
const CANCEL_POLL_MS = 100;

/** A run in the worker, as this thread follows it. */
interface Run {
  readonly sink: RunSink | WriteSink;
  readonly settle: (outcome: RunOutcome | WriteOutcome) => void;
  readonly fail: (error: Error) => void;
  readonly onDetected: ((dialect: DetectedDialect) => void) | undefined;
  /** The sink calls so far, one after the other, in the order the worker made them. */
  calls: Promise<void>;
  /** The first failing sink call: the run's error, whatever the worker reports after it. */
  sinkError: Error | undefined;
}

/**
 * A job's work (`runScope`, `writeChanges`) run on a worker thread (issue 12). The work's client side —
 * parsing each description, the operators, the diff, building the writes — otherwise shares the thread
 * that serves HTTP and, on the embedded repository, answers the work's own requests; on its own thread
 * it runs beside them, on the machine's other core. The runner does not change: the sinks stay here
 * (the database, the counts, the leases), called in the order the worker makes the calls; requests to
 * this process's own `/rest/` are relayed back and answered in process as before (`TransportRelay`).
 *
 * One worker, started on the first job and kept for the next ones (start-up costs about 0.3 s); a worker
 * that dies fails the runs it held with the reason, and the next run starts a new one. A target without
 * its `connection` (test fakes) runs on this thread.
 */
export class ThreadedJobWork {
  private worker: Worker | undefined;
  private readonly runs = new Map<number, Run>();
  private readonly relay = new TransportRelay((message, transfer) => {
    this.worker?.postMessage(message, transfer);
  });
  private nextRunId = 1;
  private closed = false;

  constructor(private readonly local: LocalRoutes | undefined) {}

  readonly runScope = (request: RunRequest, target: JobTarget, sink: RunSink): Promise<RunOutcome> => {
    const connection = target.connection?.();
    if (connection === undefined) return runScope(request, target, sink);
    return this.start(target, connection, sink, (runId, start) => ({
      type: 'run',
      ...start,
      runId,
      request,
      done: [...sink.done],
    })) as Promise<RunOutcome>;
  };

  readonly writeChanges = async (
    target: JobTarget,
    changes: readonly StoredChange[] | AsyncIterable<StoredChange>,
    mode: 'APPLY' | 'UNDO',
    sink: WriteSink,
    concurrency: number,
  ): Promise<WriteOutcome> => {
    const connection = target.connection?.();
    if (connection === undefined) return writeChanges(target, changes, mode, sink, concurrency);
    const wire: WireChange[] = [];
    for await (const change of changes) wire.push(toWireChange(change));
    return (await this.start(target, connection, sink, (runId, start) => ({
      type: 'write',
      ...start,
      runId,
      changes: wire,
      mode,
      concurrency,
    }))) as WriteOutcome;
  };

  /** Stops the worker; runs still in it fail. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
    this.failAll(new Error('The service is closing'));
  }

  private start(
    target: JobTarget,
    connection: NonNullable<ReturnType<NonNullable<JobTarget['connection']>>>,
    sink: RunSink | WriteSink,
    message: (
      runId: number,
      start: { connection: WorkerConnection; schemas: JobTarget['schemas']; rootUri: string },
    ) => ToWorker,
  ): Promise<RunOutcome | WriteOutcome> {
    if (this.closed) return Promise.reject(new Error('The service is closing'));
    const worker = this.workerNow();
    const runId = this.nextRunId++;
    const { onDetected, ...view } = connection;
    const transport = this.local?.transportFor(parseRoot(view.rootUri));
    if (transport !== undefined) this.relay.open(runId, transport);
    const workerConnection: WorkerConnection = {
      ...view,
      reportsDetection: onDetected !== undefined,
      inProcess: transport !== undefined,
    };
    return new Promise((resolve, reject) => {
      const poll = setInterval(() => {
        if (sink.cancelled()) this.post({ type: 'cancel', runId });
      }, CANCEL_POLL_MS);
      const end = () => {
        clearInterval(poll);
        this.runs.delete(runId);
        this.relay.close(runId);
      };
      this.runs.set(runId, {
        sink,
        onDetected,
        calls: Promise.resolve(),
        sinkError: undefined,
        settle: (outcome) => {
          end();
          resolve(outcome);
        },
        fail: (error) => {
          end();
          reject(error);
        },
      });
      if (sink.cancelled()) this.post({ type: 'cancel', runId });
      worker.postMessage(
        message(runId, { connection: workerConnection, schemas: target.schemas, rootUri: target.rootUri }),
      );
    });
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private workerNow(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = startJobWorker();
    // The jobs' worker never keeps the process alive: closing the app ends it.
    worker.unref();
    worker.on('message', (message: FromWorker) => {
      this.receive(message);
    });
    const gone = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.relay.closeAll();
      this.failAll(new Error(`The curation jobs' worker thread stopped: ${why}`));
    };
    worker.on('error', (error) => {
      gone(error.message);
    });
    worker.on('exit', (code) => {
      gone(`it exited with code ${code}`);
    });
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const run of [...this.runs.values()]) run.fail(error);
  }

  private receive(message: FromWorker): void {
    if (isRelayRequest(message)) {
      this.relay.receive(message);
      return;
    }
    const run = this.runs.get(message.runId);
    if (run === undefined) return;
    switch (message.type) {
      case 'found':
        (run.sink as RunSink).found(message.count);
        return;
      case 'record': {
        const item = fromWireItem(message.item);
        this.inOrder(run, message.runId, message.seq, () => (run.sink as RunSink).record(item));
        return;
      }
      case 'sink': {
        const sink = run.sink as WriteSink;
        this.inOrder(run, message.runId, message.seq, () => sink[message.call](message.uris));
        return;
      }
      case 'detected':
        run.onDetected?.(message.dialect);
        return;
      case 'ran':
      case 'wrote': {
        const outcome = message.outcome;
        // Settled once every sink call the worker made before it is done.
        void run.calls.then(() => {
          if (run.sinkError === undefined) run.settle(outcome);
          else run.fail(run.sinkError);
        });
        return;
      }
      case 'threw':
        void run.calls.then(() => {
          run.fail(run.sinkError ?? errorOf(message.error));
        });
        return;
    }
  }

  /** Runs a sink call after the ones before it and acknowledges it; after a failure, calls are refused. */
  private inOrder(run: Run, runId: number, seq: number, call: () => Promise<void>): void {
    run.calls = run.calls.then(async () => {
      if (run.sinkError !== undefined) {
        this.post({ type: 'ack', runId, seq, error: run.sinkError.message });
        return;
      }
      try {
        await call();
        this.post({ type: 'ack', runId, seq });
      } catch (error) {
        run.sinkError = error instanceof Error ? error : new Error(String(error));
        this.post({ type: 'ack', runId, seq, error: run.sinkError.message });
      }
    });
  }
}
