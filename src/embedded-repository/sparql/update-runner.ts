import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type { Quad } from 'n3';
import { Piscina } from 'piscina';
import type sparqljs from 'sparqljs';
import { RepositoryRefusal } from '../refusal.js';
import { toStored } from '../../linked-data/rdf/serialize.js';
import { toN3Quad } from '../../linked-data/rdf/terms.js';
import { planUpdate } from './update-plan.js';
import runUpdate, { type UpdateOutcome, type UpdateTask } from './update-worker.js';

export interface UpdateLimits {
  /** Longest an update may evaluate, in milliseconds (time queued for a thread is not counted). */
  readonly timeoutMs: number;
  /** Most solutions the WHERE of one operation may have. */
  readonly maxSolutions: number;
}

/** Plain JavaScript beside this module in src/ and in dist/ alike (see the worker's header). */
const WORKER = new URL('./update-worker.js', import.meta.url).href;
/** Updates waiting for a thread beyond this many are refused (503) rather than queued without end. */
const MAX_QUEUE = 64;
/** An idle thread is kept this long, so a series of updates does not start one each time. */
const IDLE_MS = 60_000;
/** A worker's JavaScript heap (the graph it answers is held there); past it the worker dies: 422. */
const WORKER_HEAP_MB = 512;

function threadCount(): number {
  return Math.max(2, Math.min(4, Math.floor(availableParallelism() / 2)));
}

/**
 * Runs SPARQL Updates off the main thread (issue 8, finding 5: a 3-way join over 200 triples held the
 * event loop for 18 s). Each update runs in a worker thread of a small pool, created on first use, with
 * a time limit after which that thread is terminated, and a limit on the solutions of each WHERE. Both
 * answer 422 and change nothing.
 */
export class SparqlUpdateRunner {
  private pool: Piscina | undefined;
  private closed = false;

  constructor(private readonly limits: UpdateLimits) {}

  /**
   * The triples after running `text` on `triples`, `<>` resolving to `baseIri`; `parsed` is the update
   * as the caller's vetting parsed it (vetSparqlUpdate).
   */
  async apply(
    triples: readonly Quad[],
    text: string,
    baseIri: string,
    parsed: sparqljs.Update,
  ): Promise<Quad[]> {
    const plan = planUpdate(text, parsed, this.limits.maxSolutions);
    // INSERT DATA and DELETE DATA match nothing: their cost is linear in the body, which the body limit
    // bounds, so they run here and spare the thread round trip (a third of a PATCH's time).
    if (plan.steps.every((step) => step.count === null)) {
      return this.outcomeOf(
        runUpdate({
          triples: toStored(triples),
          steps: plan.steps,
          base: baseIri,
          maxSolutions: this.limits.maxSolutions,
          countVariable: plan.countVariable,
        }),
      );
    }
    const { port1: started, port2 } = new MessageChannel();
    const task: UpdateTask = {
      triples: toStored(triples),
      steps: plan.steps,
      base: baseIri,
      maxSolutions: this.limits.maxSolutions,
      countVariable: plan.countVariable,
      started: port2,
    };
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The clock starts when the worker begins evaluating, not while the task waits for a thread.
    started.once('message', () => {
      timer = setTimeout(() => {
        abort.abort();
      }, this.limits.timeoutMs);
    });
    let outcome: UpdateOutcome;
    try {
      outcome = (await this.threads().run(task, {
        signal: abort.signal,
        transferList: [port2],
      })) as UpdateOutcome;
    } catch (error) {
      // Only the time limit aborts a task.
      if (abort.signal.aborted) {
        throw new RepositoryRefusal(
          'limitExceeded',
          `The SPARQL Update exceeded the time limit of ${this.limits.timeoutMs} ms and was stopped; nothing was changed`,
          true,
        );
      }
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new RepositoryRefusal(
          'limitExceeded',
          `The SPARQL Update exceeded the memory of its worker (${WORKER_HEAP_MB} MiB) and was stopped; nothing was changed`,
          true,
        );
      }
      if (error instanceof Error && /queue is at limit|closed|terminated/i.test(error.message)) {
        throw new RepositoryRefusal('busy', 'Too many SPARQL Updates are running; retry later');
      }
      throw error;
    } finally {
      clearTimeout(timer);
      started.close();
    }
    return this.outcomeOf(outcome);
  }

  private outcomeOf(outcome: UpdateOutcome): Quad[] {
    switch (outcome.kind) {
      case 'done':
        return outcome.quads.map((q) => toN3Quad(q));
      case 'tooManySolutions':
        throw new RepositoryRefusal(
          'limitExceeded',
          `The SPARQL Update exceeded the solution limit: a WHERE clause has more than ${this.limits.maxSolutions} solutions; nothing was changed`,
          true,
        );
      case 'failed':
        throw new RepositoryRefusal('invalid', `The SPARQL Update failed: ${outcome.message.slice(0, 300)}`);
    }
  }

  /** Terminates the threads (the app's onClose); updates still running fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private threads(): Piscina {
    if (this.closed) throw new RepositoryRefusal('closing', 'The service is shutting down');
    this.pool ??= new Piscina({
      filename: WORKER,
      minThreads: 0,
      maxThreads: threadCount(),
      maxQueue: MAX_QUEUE,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    return this.pool;
  }
}
