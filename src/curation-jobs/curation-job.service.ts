import type { Principal } from '../auth/roles.js';
import { NO_EVENTS, type EventBus } from '../events/event-bus.js';
import type { Operator } from '../operators/operator.js';
import { resolveContextUri } from '../repository-view-context/context-uri.js';
import { type OpenedView, type RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { CheckedBody } from '../shared/body-check.js';
import { businessInvalid, businessMessages as msg } from '../shared/business-messages.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import type { ScopeFinder } from '../search/search.js';
import { type CurationJob, type JobFixityResult, type ResourceChange } from './curation-job.js';
import { publishJob } from './curation-job.events.js';
import type { CurationJobBody } from './curation-job.schema.js';
import {
  toCurationJob,
  type CurationJobStore,
  type JobRecord,
  type NewCurationJob,
  type StateMove,
} from './curation-job.store.js';
import { refusal, type JobMove, type JobRequest } from './job-states.js';
import type { JobQueue } from './runner/job-queue.js';
import { toResourceChange } from './resource-change.js';
import { checkOperators } from './job-operators-check.js';
import { checkScope } from './job-scope-check.js';
import type { SheetSource } from '../spreadsheets/import/csv-records.js';
import { checkExportFields } from '../exports/export-job-check.js';
import type { CopyResult, JobCopies } from '../copies/job-copies.js';
import { checkCopyFields } from './copy-job-check.js';
import { sheetOfRequest, type SpreadsheetImport } from '../spreadsheets/import/spreadsheet-job-creation.js';

export const ENTITY = 'CurationJob';

export interface CurationJobServiceDependencies {
  readonly store: CurationJobStore;
  readonly views: RepositoryViewService;
  /** The stored operators with these ids (those that exist, any order). */
  readonly operators: (ids: readonly number[]) => Promise<readonly Operator[]>;
  readonly queue: JobQueue;
  /** Search, which QUERY and MEMBERS scopes need (DECISIONS.md §12); without it they are refused. */
  readonly scopes?: ScopeFinder;
  /** SPREADSHEET jobs' sheets (DECISIONS.md §13); `create`'s `file` is one uploaded as a file. */
  readonly spreadsheets: SpreadsheetImport;
  readonly events?: EventBus;
  readonly now?: () => number;
  /** COPY jobs' reports (DECISIONS.md §16, src/copies/); absent: a COPY job's report is an error. */
  readonly copies?: () => JobCopies | undefined;
}

/** A job's report: FIXITY results, or a COPY job's rows (a page, and every row for the CSV). */
export type JobReport =
  | { readonly kind: 'FIXITY'; readonly job: CurationJob; readonly results: JobFixityResult[] }
  | {
      readonly kind: 'COPY';
      readonly job: CurationJob;
      readonly rows: readonly CopyResult[];
      readonly all: () => AsyncIterable<CopyResult>;
    };

/**
 * Curation jobs through the API (DECISIONS.md §9): ADMIN, or a curator of the job's view. A curator never
 * sees another view's jobs: such a job answers as if it did not exist. Requests only move a job's state
 * (each move one conditional UPDATE, so of two applies at once exactly one wins) and queue the phase; the
 * runner does the work.
 */
export class CurationJobService {
  private readonly events: EventBus;
  private readonly now: () => number;

  constructor(private readonly deps: CurationJobServiceDependencies) {
    this.events = deps.events ?? NO_EVENTS;
    this.now = deps.now ?? Date.now;
  }

  async create(
    body: CheckedBody<CurationJobBody>,
    caller: Principal,
    file?: SheetSource,
  ): Promise<CurationJob> {
    const { value, opened, contextUri, sheet, target } = await this.check(body, caller, file);
    const job: NewCurationJob = {
      kind: value.kind,
      repositoryViewId: opened.view.id,
      contextUri,
      scope: value.scope ?? 'SUBTREE',
      query: value.scope === 'QUERY' ? (value.query ?? null) : null,
      format: value.kind === 'EXPORT' ? (value.format ?? null) : null,
      ...(target !== undefined && { target }),
      operators: value.kind === 'MAPPING' ? (value.operators ?? []) : [],
      // Jobs that write preview unless told otherwise (a COPY job's preview is its dry run).
      dryRun: value.dryRun ?? ['MAPPING', 'SPREADSHEET', 'COPY'].includes(value.kind),
      createdBy: caller.userId,
      createdByName: caller.username,
      created: this.now(),
    };
    if (sheet !== undefined)
      return this.start(await this.deps.spreadsheets.createJob(job, opened.schemas, sheet, body.collector));
    return value.kind === 'INDEX' ? this.startIndexJob(job) : this.start(await this.deps.store.create(job));
  }

  /** Checks a job body as `create` does, starting nothing (also a schedule's job: src/schedules). */
  async check(body: CheckedBody<CurationJobBody>, caller: Principal, file?: SheetSource) {
    const collector = body.collector;
    const viewId = body.get('repositoryViewId');
    const opened = viewId === undefined ? undefined : await this.openForCaller(viewId, caller);
    if (viewId !== undefined && opened === undefined)
      collector.add('repositoryViewId', 'exists', msg.doesNotExist('RepositoryView', viewId));

    let contextUri: string | undefined;
    const requested = body.get('contextUri');
    if (opened !== undefined && requested !== undefined) {
      try {
        const resolved = resolveContextUri(opened.view.rootUri, requested);
        if (resolved.tx === undefined) contextUri = resolved.uri;
        else
          collector.add('contextUri', 'pattern', "A curation job's contextUri must not name a transaction");
      } catch (error) {
        if (!(error instanceof BadRequestError)) throw error;
        collector.add('contextUri', 'pattern', error.message);
      }
    }

    const kind = body.get('kind');
    const sheet = sheetOfRequest(body, file);
    const operatorIds = body.passed('operators') ? (body.get('operators') ?? []) : undefined;
    if (kind === 'MAPPING' && operatorIds !== undefined)
      await checkOperators(operatorIds, this.deps.operators, opened, body);
    if (kind === 'FIXITY') {
      if (operatorIds !== undefined && operatorIds.length > 0)
        collector.add('operators', 'type', 'A FIXITY job takes no operators');
      if (opened !== undefined && opened.adapter.fixity === undefined)
        collector.add(
          'kind',
          'type',
          `A FIXITY job needs a repository view whose type checks fixity; ${opened.view.type} views do not`,
        );
    }

    if (kind === 'INDEX') {
      if (operatorIds !== undefined && operatorIds.length > 0)
        collector.add('operators', 'type', 'An INDEX job takes no operators');
      if (body.get('dryRun') === true)
        collector.add('dryRun', 'type', 'An INDEX job does not preview: its dryRun must be false');
    }
    checkExportFields(body);
    const { views } = this.deps;
    const target = await checkCopyFields(body, { views, caller, source: opened, contextUri });
    await checkScope(body, this.deps.scopes, opened, contextUri);

    const value = body.value;
    if (!collector.isValid || value === undefined || opened === undefined || contextUri === undefined)
      throw new ValidationFailedError(collector.results());
    return { value, opened, contextUri, sheet, target };
  }

  /**
   * Starts an INDEX job of the whole view (DECISIONS.md §12: a reindex, or the first index of a new view);
   * the caller's permission is the caller's to check. `createdBy` 0: the service started it by itself.
   */
  async startIndexing(
    view: { readonly id: number; readonly rootUri: string },
    createdBy: number,
  ): Promise<CurationJob> {
    return this.startIndexJob({
      kind: 'INDEX',
      repositoryViewId: view.id,
      contextUri: resolveContextUri(view.rootUri, '').uri,
      scope: 'SUBTREE',
      operators: [],
      dryRun: false,
      createdBy,
      created: this.now(),
    });
  }

  /** One INDEX job per view at a time: a second while one runs is INVALID, naming the one that runs. */
  private async startIndexJob(job: NewCurationJob): Promise<CurationJob> {
    const outcome = await this.deps.store.createUnlessRunning(job);
    if ('running' in outcome) {
      const { id, state } = outcome.running;
      throw businessInvalid(
        'CREATE',
        `Repository view ${job.repositoryViewId} is being indexed already: INDEX job ${id} is ${state}; wait for it to end or cancel it`,
      );
    }
    return this.start(outcome.created);
  }

  private async start(job: JobRecord): Promise<CurationJob> {
    publishJob(this.events, 'CREATE', job);
    await this.deps.queue.enqueue(job.id);
    return toCurationJob(job);
  }

  /** Newest first; a curator sees the jobs of the views they curate. */
  async list(caller: Principal): Promise<CurationJob[]> {
    const viewIds =
      caller.role === 'ROLE_ADMIN' ? undefined : (await this.deps.views.list(caller)).map((view) => view.id);
    return (await this.deps.store.list(viewIds)).map(toCurationJob);
  }

  async get(id: number, caller: Principal): Promise<CurationJob> {
    return toCurationJob(await this.find(id, caller));
  }

  /** The resources that change or failed, by position: a page of at most `limit` from `offset`. */
  async changes(
    id: number,
    caller: Principal,
    { offset, limit }: { readonly offset: number; readonly limit: number },
  ): Promise<ResourceChange[]> {
    const job = await this.find(id, caller);
    return (await this.deps.store.items.changes(job.id, offset, limit)).map(toResourceChange);
  }

  /**
   * FIXITY results, failures first (a MAPPING job has none); a COPY job's rows in plan order, a page of at
   * most `limit` from `offset`.
   */
  async report(
    id: number,
    caller: Principal,
    { offset, limit }: { readonly offset: number; readonly limit: number },
  ): Promise<JobReport> {
    const job = await this.find(id, caller);
    if (job.kind !== 'COPY')
      return {
        kind: 'FIXITY',
        job: toCurationJob(job),
        results: await this.deps.store.items.fixityReport(job.id),
      };
    const copies = this.deps.copies?.();
    if (copies === undefined) throw new Error('Copies are not available in this service');
    return {
      kind: 'COPY',
      job: toCurationJob(job),
      rows: await copies.report(job.id, offset, limit),
      all: () => copies.reportRows(job.id),
    };
  }

  /** Writes a previewed job's changes (the runner does it; the job is APPLYING when this answers). */
  async apply(id: number, caller: Principal): Promise<CurationJob> {
    const job = await this.findToWrite(id, caller);
    return this.startWriting(job, 'apply', 'apply', { appliedBy: caller.username });
  }

  /**
   * Writes the inverse of an applied job's changes; also of a FAILED job that wrote some (an LDP apply stopped
   * part way: undo writes back exactly the resources it wrote).
   */
  async undo(id: number, caller: Principal): Promise<CurationJob> {
    const job = await this.findToWrite(id, caller);
    const partial = job.state === 'FAILED' && (await this.wroteSome(job));
    return this.startWriting(job, 'undo', partial ? 'undoPartial' : 'undo', { undoneBy: caller.username });
  }

  /**
   * A queued job is cancelled at once; a running one stops at its next resource (CANCELLED then); an applying
   * or undoing one stops where that is truthful (DECISIONS.md §9: back to PREVIEWED/APPLIED when nothing was
   * written, FAILED naming what was).
   */
  async cancel(id: number, caller: Principal): Promise<CurationJob> {
    const job = await this.findToWrite(id, caller);
    const { store } = this.deps;
    const cancelledAtOnce = await store.moveState(job.id, 'cancel', {
      finished: this.now(),
      message: 'Cancelled before it started',
    });
    if (!cancelledAtOnce && !(await store.requestCancel(job.id))) await this.refuse(job, 'cancel');
    return toCurationJob(await this.announce(job.id, cancelledAtOnce));
  }

  /**
   * Moves the job into the phase `request` asks for and queues that phase for a runner; `by` keeps who
   * asked, whom the ledger records the phase's writes as (DECISIONS.md §14).
   */
  private async startWriting(
    job: JobRecord,
    request: JobRequest,
    move: JobMove,
    by: Pick<StateMove, 'appliedBy' | 'undoneBy'>,
  ): Promise<CurationJob> {
    if (!(await this.deps.store.moveState(job.id, move, { message: null, finished: null, ...by })))
      await this.refuse(job, request);
    const record = await this.announce(job.id, true);
    await this.deps.queue.enqueue(job.id);
    return toCurationJob(record);
  }

  /** A request the job's state does not allow (job-states.ts), named with the state it is in now. */
  private async refuse(job: JobRecord, request: JobRequest): Promise<never> {
    const now = (await this.deps.store.get(job.id))?.state ?? job.state;
    throw new BadRequestError(refusal(job.id, now, request));
  }

  private async announce(jobId: number, changed: boolean): Promise<JobRecord> {
    const job = await this.deps.store.get(jobId);
    if (job === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, jobId));
    if (changed) publishJob(this.events, 'UPDATE', job);
    return job;
  }

  /** The job as the caller may see it; an unknown job and another view's job answer alike. */
  private async find(id: number, caller: Principal): Promise<JobRecord> {
    const job = await this.deps.store.get(id);
    if (job === undefined || !(await this.curates(job.repositoryViewId, caller)))
      throw new NotFoundError(msg.doesNotExist(ENTITY, id));
    return job;
  }

  /** Whether a FAILED job wrote some resources before it stopped (a COPY job: some copy is there). */
  private async wroteSome(job: JobRecord): Promise<boolean> {
    if (job.kind !== 'COPY') return this.deps.store.items.hasWrittenItems(job.id);
    const copies = this.deps.copies?.();
    if (copies === undefined) return false;
    for await (const row of copies.reportRows(job.id)) if (row.outcome === 'COPIED') return true;
    return false;
  }

  /**
   * The job as the caller may act on it: a COPY job writes into its target view too, so a curator who no
   * longer curates that view may read the job but not apply, undo or cancel it (403, naming the view).
   */
  private async findToWrite(id: number, caller: Principal): Promise<JobRecord> {
    const job = await this.find(id, caller);
    const target = job.targetRepositoryViewId;
    if (job.kind === 'COPY' && target !== null && !(await this.curates(target, caller)))
      throw new ForbiddenError(
        `You are not a curator of repository view ${target}, which curation job ${id} copies into`,
      );
    return job;
  }

  private async curates(viewId: number, caller: Principal): Promise<boolean> {
    if (caller.role === 'ROLE_ADMIN') return true;
    try {
      await this.deps.views.get(viewId, caller);
      return true;
    } catch (error) {
      if (error instanceof ForbiddenError || error instanceof NotFoundError) return false;
      throw error;
    }
  }

  /** The view opened for the caller, or undefined when it does not exist or they do not curate it. */
  private async openForCaller(viewId: number, caller: Principal): Promise<OpenedView | undefined> {
    try {
      const view = await this.deps.views.get(viewId, caller);
      return await this.deps.views.open(view.type, view.id, caller);
    } catch (error) {
      if (error instanceof ForbiddenError || error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}
