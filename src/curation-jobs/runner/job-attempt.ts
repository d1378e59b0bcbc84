import { runAs } from '../../audit/audit-actor.js';
import type { JobProgress } from '../curation-job.js';
import { publishJob } from '../curation-job.events.js';
import type { JobRecord, StateMove } from '../curation-job.store.js';
import type { AttemptDependencies } from './attempt-dependencies.js';
import { ACTIVE_STATE, PHASE_OF, type JobMove, type JobPhase } from '../job-states.js';
import type { JobTarget, RunOutcome, WriteOutcome } from '../work/job-work.js';
import { ItemBatcher, type BatchEntry } from './item-batcher.js';
import type { JobHeartbeat } from './job-heartbeat.js';
import { JobLedger } from './job-ledger.js';
import { count, fixityMessage, indexMessage, plural, previewMessage, warningsNote } from './job-messages.js';
import { countOf, itemOf } from './run-item.js';
import { storedChangeOf } from './stored-change.js';
import { encodeTriples } from '../stored-triples.js';
import { sameResource } from '../../repository-adapters/upstream-exchange.js';
import { sheetOf, tellWritten } from './job-written.js';
import { rollBackLeftTransaction } from './left-transaction.js';
import { CopyPlan, copyWritePhase, endCopyRun, type CopyControl, type CopyWork } from './copy-phases.js';

export type { AttemptDependencies, JobWork } from './attempt-dependencies.js';

/** What each write phase's ends are, and how its messages say it. */
const WRITE_ENDS = {
  APPLY: { done: 'applied', cancelled: 'applyCancelled', what: 'apply', verb: 'written' },
  UNDO: { done: 'undone', cancelled: 'undoCancelled', what: 'undo', verb: 'restored' },
} as const satisfies Record<
  'APPLY' | 'UNDO',
  { done: JobMove; cancelled: JobMove; what: string; verb: string }
>;

/**
 * One attempt at one job (DECISIONS.md §9): the phases it owes, in order, until it rests or waits — walk the
 * scope (recording each resource and flushing progress), then write the change-set or its inverse. Every move
 * is made while this attempt's `lease` holds the job and is one of job-states.ts; a runner that lost its job
 * to another one never overwrites what the other did.
 */
export class JobAttempt implements CopyControl {
  private counters: JobProgress | undefined;

  /** Set while a run walks its scope; the heartbeat flushes it. */
  private progressFlush: (() => Promise<void>) | undefined;

  constructor(
    readonly deps: AttemptDependencies,
    public job: JobRecord,
    readonly lease: string,
    readonly heartbeat: JobHeartbeat,
  ) {}

  flushProgress(): Promise<void> {
    return this.progressFlush?.() ?? Promise.resolve();
  }

  /** `copy`: a COPY job's target view and engine (src/copies/); `target` is then the source view. */
  async run(target: JobTarget, copy?: CopyWork): Promise<void> {
    let phase: JobPhase | null = PHASE_OF[this.job.state];
    if (phase === 'RUN') phase = await this.runPhase(target, copy);
    if (phase !== 'APPLY' && phase !== 'UNDO') return;
    await (copy === undefined ? this.writePhase(phase, target) : copyWritePhase(this, phase, target, copy));
  }

  flushWith(flush: (() => Promise<void>) | undefined): void {
    this.progressFlush = flush;
  }

  /** Ends the job FAILED with `message` (an unexpected error), with the counts it had reached. */
  async fail(message: string): Promise<void> {
    await this.end('fail', message, this.counters);
  }

  stopping(): boolean {
    return this.heartbeat.stopping || this.deps.closing();
  }

  /** Moves the job (while the lease holds it) and tells subscribers; false when it did not move. */
  async move(name: JobMove, move: StateMove): Promise<boolean> {
    const moved = await this.deps.store.moveState(this.job.id, name, { ...move, leaseOwner: this.lease });
    if (moved) await this.announce('UPDATE');
    return moved;
  }

  /** Ends the job in a state where it rests (or waits for a request): lease dropped. */
  end(name: JobMove, message: string, progress?: JobProgress): Promise<boolean> {
    return this.move(name, {
      message,
      finished: this.deps.now(),
      releaseLease: true,
      // Whatever stopped, a cancel asked during this phase is answered: the next phase must not see it.
      clearCancel: true,
      ...(progress !== undefined && { progress }),
    });
  }

  async announce(action: 'UPDATE' | 'PROGRESS'): Promise<void> {
    const job = await this.deps.store.get(this.job.id);
    if (job !== undefined) publishJob(this.deps.events, action, job);
  }

  /** Walks the scope; answers the phase to go on with (APPLY for a MAPPING job that is not a dry run). */
  private async runPhase(target: JobTarget, copy?: CopyWork): Promise<JobPhase | null> {
    const { deps, job, heartbeat } = this;
    const { store } = deps;
    const items = store.items;
    const startedNow = deps.now();
    if (!(await this.move('start', { started: startedNow }))) return null;
    if (job.cancelRequested) {
      await this.end('stop', 'Cancelled before it started');
      return null;
    }
    const { indexing } = deps;
    if (job.kind === 'INDEX' && indexing === undefined) {
      await this.end('fail', 'An INDEX job needs the search index, which this process does not have');
      return null;
    }
    const sheet = job.kind === 'SPREADSHEET' ? await sheetOf(deps.sheets, job.spreadsheetId) : undefined;
    if (typeof sheet === 'string') {
      await this.end('fail', sheet);
      return null;
    }
    // A resumed run keeps its first start: what the sweep of an INDEX job compares against.
    const started = job.started ?? startedNow;
    const operators = job.kind === 'MAPPING' ? await deps.operators(job.operators) : [];
    // A resumed run starts from what the earlier attempt recorded.
    const recorded = await items.recordedUris(job.id);
    const before = await items.countersFromItems(job.id);
    let position = await items.lastPosition(job.id);
    // Resources found in scope so far (a resumed walk finds the recorded ones again).
    let found = 0;
    let { done, changed, failed } = before;
    const progress = (): JobProgress => ({ total: Math.max(found, done), done, changed, failed });
    // INDEX: a batch's documents are in the index before its items say they are done (a resumed run skips
    // what the items list, and its sweep would drop a document that was never written).
    // FIXITY: each check is in the ledger with its item, once (job-ledger.ts).
    const ledger = job.kind === 'FIXITY' ? new JobLedger(deps.audit, job, 'RUN') : undefined;
    const insert = async (batch: readonly BatchEntry[]) => {
      const documents = batch.flatMap((entry) => (entry.document === undefined ? [] : [entry.document]));
      if (documents.length > 0) await indexing?.write(job.repositoryViewId, documents);
      await (ledger === undefined ? items.insertItems(job.id, batch) : ledger.storeChecks(store, batch));
    };
    const batcher = new ItemBatcher(insert, deps.now);
    let flushed = '';
    const flush = async () => {
      // Items first: the progress stored never counts an item that is not.
      await batcher.persist();
      const now = progress();
      if (JSON.stringify(now) === flushed) return;
      flushed = JSON.stringify(now);
      if (await store.updateProgress(job.id, this.lease, now)) await this.announce('PROGRESS');
    };
    this.counters = progress();
    this.progressFlush = async () => {
      this.counters = progress();
      await flush();
    };
    let outcome: RunOutcome;
    // COPY: the engine plans (a dry run of the copy), recording each resource as a walk does.
    const plan = copy === undefined ? undefined : new CopyPlan(copy, job, deps);
    const scan: typeof deps.work.runScope = (request, source, sink) =>
      plan === undefined ? deps.work.runScope(request, source, sink) : plan.run(source, sink);
    try {
      outcome = await scan(
        {
          kind: job.kind,
          contextUri: job.contextUri,
          scope: job.scope,
          query: job.query,
          operators,
          ...(sheet !== undefined && { sheet }),
          jobId: job.id,
          concurrency: deps.concurrency,
          maxResources: job.kind === 'INDEX' ? deps.indexMaxResources : deps.maxResources,
        },
        target,
        {
          isDone: (uri) => recorded.has(uri),
          found: (n) => {
            found += n;
          },
          record: async (item) => {
            if (recorded.has(item.contextUri)) return;
            recorded.add(item.contextUri);
            position += 1;
            const document = item.kind === 'INDEX' ? (item.document ?? undefined) : undefined;
            await batcher.add({ position, item: itemOf(item), document });
            done += 1;
            const counted = countOf(item);
            if (counted === 'changed') changed += 1;
            if (counted === 'failed') failed += 1;
            this.counters = progress();
          },
          cancelled: () => this.stopping(),
          ...(ledger !== undefined && { act: (uri, check) => ledger.act(uri, check) }),
        },
      );
      // What is recorded is stored before the job moves on (or rests, to be resumed from it).
      await batcher.persist();
    } finally {
      this.progressFlush = undefined;
    }
    // The last word on the lease and on cancel, before the job is ended.
    await heartbeat.beat();
    if (heartbeat.lost || (deps.closing() && outcome.ended === 'CANCELLED')) {
      if (!heartbeat.lost) await store.updateProgress(job.id, this.lease, progress());
      return null;
    }
    const final = progress();
    this.counters = final;
    if (outcome.ended === 'CANCELLED' || heartbeat.cancelRequested) {
      await this.end('stop', `Cancelled after ${count(final.done)} of ${count(final.total)}`, final);
      return null;
    }
    if (outcome.ended === 'FAILED') {
      await this.end('fail', outcome.message, final);
      return null;
    }
    // A scope that held nothing says why (a collection without members, a query without hits).
    const note = outcome.note === undefined ? '' : `; ${outcome.note}`;
    // COPY: the engine's note is the dry run's whole message.
    if (plan !== undefined) return endCopyRun(this, plan, final, outcome.note);
    if (job.kind === 'FIXITY' || job.kind === 'EXPORT') {
      await this.end('complete', fixityMessage(final, job.kind) + note, final);
      return null;
    }
    if (job.kind === 'INDEX') {
      // Only a walk of a whole subtree knows what is gone from it (RESOURCE and CHILDREN scopes only add).
      const removed =
        job.scope === 'SUBTREE' && indexing !== undefined
          ? await indexing.finish({
              jobId: job.id,
              viewId: job.repositoryViewId,
              within: sameResource(job.contextUri, target.rootUri) ? null : job.contextUri,
              since: started,
            })
          : 0;
      await this.end('complete', indexMessage(final, removed) + note, final);
      return null;
    }
    // Counted from the stored items: a resumed run's warnings include the earlier attempt's.
    const warnings = await this.deps.store.items.warningCount(job.id);
    if (job.dryRun) {
      await this.end('preview', previewMessage(final, warnings) + note, final);
      return null;
    }
    const moved = await this.move('writeThrough', {
      message: previewMessage(final, warnings) + note,
      progress: final,
    });
    return moved ? 'APPLY' : null;
  }

  /** Writes the stored change-set (APPLY) or its inverse (UNDO). */
  private async writePhase(phase: 'APPLY' | 'UNDO', target: JobTarget): Promise<void> {
    const { deps, job, heartbeat } = this;
    const { store } = deps;
    const items = store.items;
    const ends = WRITE_ENDS[phase];
    // Still ours and still in this phase (a request moved it there; a resumed attempt finds it there).
    if (!(await store.isHeld(job.id, this.lease, ACTIVE_STATE[phase]))) return;
    this.job = (await store.get(job.id)) ?? job;
    this.counters = this.job.progress;
    const leftOver = await rollBackLeftTransaction(store, this.job, this.lease, target);
    if (leftOver !== undefined) {
      await this.end('fail', leftOver);
      return;
    }
    const stored = await items.itemsToWrite(job.id, phase);
    const changes = stored.map((item) => storedChangeOf(item, phase, job.contextUri));
    // SPREADSHEET `+` rows: the resources created, by key (recorded by earlier attempts, then by this one).
    const created = new Map(
      stored.flatMap((item) => (item.createdUri === null ? [] : [[item.contextUri, item.createdUri]])),
    );
    // Each write is the ledger's once it is marked written (job-ledger.ts), as who asked for the phase.
    const ledger = new JobLedger(deps.audit, this.job, phase);
    const markWritten = (uris?: readonly string[]) =>
      ledger.markWritten(store, phase, changes, created, uris);
    const outcome: WriteOutcome = await runAs(ledger.phaseActor, () =>
      deps.work.writeChanges(
        target,
        changes,
        phase,
        {
          // LDP: a batch is marked before its requests are sent and after they end, so a failure (or a
          // crash) reports exactly what was written, or which resources to check.
          writing: (uris) => items.markWriting(job.id, phase, uris),
          written: (uris) => markWritten(uris),
          notWritten: (uris) => items.markNotWritten(job.id, phase, uris),
          // SPREADSHEET `+` rows: kept at once (inside the transaction where there is one), for undo and
          // resume.
          created: async (key, uri, state) => {
            created.set(key, uri);
            await items.markCreated(job.id, key, uri, state === undefined ? null : encodeTriples(state));
          },
          cancelled: () => this.stopping(),
          act: (key, write) => ledger.act(key, write),
          // FEDORA: the open transaction is on the job while it is open (left-transaction.ts), and is
          // committed only while this runner still holds the job.
          opened: (tx) => store.recordRepositoryTx(job.id, this.lease, tx.id),
          mayCommit: (tx) => heartbeat.holdForCommit(tx.id),
          closed: async () => {
            await store.recordRepositoryTx(job.id, this.lease, null);
          },
        },
        deps.concurrency,
      ),
    );
    // Whatever this attempt wrote changed those resources, however the phase ends (DECISIONS.md §10), and
    // the view's search index follows them (DECISIONS.md §12).
    const written =
      outcome.ended === 'WRITTEN'
        ? changes.map((change) => change.contextUri)
        : outcome.ended === 'CANCELLED'
          ? []
          : outcome.written;
    tellWritten(deps, job, target, phase, written, created);
    // A transaction rolled back took the resources it created: the rows show as new again.
    if (phase === 'APPLY' && outcome.ended !== 'WRITTEN' && target.adapter.transactions !== undefined)
      await items.forgetUncommittedCreations(job.id);
    await heartbeat.beat();
    if (heartbeat.lost) return;
    // Closing: whatever was not written stays to write (FEDORA rolled its transaction back).
    if (deps.closing() && outcome.ended !== 'WRITTEN') return;
    if (outcome.ended === 'CANCELLED') {
      // Nothing was written: the job is back where the request found it, and may be applied (undone) again.
      await this.end(ends.cancelled, `The ${ends.what} was cancelled; ${outcome.message}`);
      return;
    }
    if (outcome.ended === 'WRITTEN') {
      // FEDORA: committed, so now in the ledger (LDP: recorded batch by batch already).
      await markWritten();
      // The preview's warnings stay told: the values they name were kept, not written.
      const warnings = phase === 'APPLY' ? await items.warningCount(job.id) : 0;
      await this.end(
        ends.done,
        `${count(outcome.count)} ${plural(outcome.count, 'resource')} ${ends.verb}${warningsNote(warnings)}`,
      );
      return;
    }
    if (outcome.ended === 'CONFLICT' && outcome.written.length > 0) {
      // The message lists what was written before the conflict; marked already, again in case a mark was lost.
      await items.markWritten(job.id, phase, outcome.written);
      await this.end('fail', outcome.message);
      return;
    }
    if (outcome.ended === 'FAILED' && outcome.written.length > 0) {
      // Marked batch by batch already; again in case a mark was lost with the failure.
      await items.markWritten(job.id, phase, outcome.written);
      await this.end('fail', `${outcome.message}; written before the failure: ${outcome.written.join(', ')}`);
      return;
    }
    await this.end('fail', outcome.message);
  }
}
