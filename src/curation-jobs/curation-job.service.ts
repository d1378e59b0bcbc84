import type { Principal } from '../auth/roles.js';
import { NO_EVENTS, type EventBus } from '../events/event-bus.js';
import type { Operator } from '../operators/operator.js';
import { resolveContextUri } from '../repository-view-context/context-uri.js';
import { type OpenedView, type RepositoryViewService } from '../repository-views/repository-view.service.js';
import type { CheckedBody } from '../shared/body-check.js';
import { businessInvalid, businessMessages as msg } from '../shared/business-messages.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import { addQueryError } from '../search/query/query-invalid.js';
import { InvalidQueryError, type ScopeFinder } from '../search/search.js';
import {
  isListedScope,
  type CurationJob,
  type JobFixityResult,
  type JobScope,
  type ResourceChange,
} from './curation-job.js';
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
import { FieldNaming } from './work/field-naming.js';
import type { SheetSource } from '../spreadsheets/import/csv-records.js';
import { checkExportFields } from '../exports/export-job-check.js';
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
}

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
    const { value, opened, contextUri, sheet } = await this.check(body, caller, file);
    const job: NewCurationJob = {
      kind: value.kind,
      repositoryViewId: opened.view.id,
      contextUri,
      scope: value.scope ?? 'SUBTREE',
      query: value.scope === 'QUERY' ? (value.query ?? null) : null,
      format: value.kind === 'EXPORT' ? (value.format ?? null) : null,
      operators: value.kind === 'MAPPING' ? (value.operators ?? []) : [],
      dryRun: value.dryRun ?? (value.kind === 'MAPPING' || value.kind === 'SPREADSHEET'),
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
    if (kind === 'MAPPING' && operatorIds !== undefined) await this.checkOperators(operatorIds, opened, body);
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
    await this.checkScope(body, opened, contextUri);

    const value = body.value;
    if (!collector.isValid || value === undefined || opened === undefined || contextUri === undefined)
      throw new ValidationFailedError(collector.results());
    return { value, opened, contextUri, sheet };
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

  /** FIXITY results, failures first (a MAPPING job has none). */
  async report(id: number, caller: Principal): Promise<{ job: CurationJob; results: JobFixityResult[] }> {
    const job = await this.find(id, caller);
    return { job: toCurationJob(job), results: await this.deps.store.items.fixityReport(job.id) };
  }

  /** Writes a previewed job's changes (the runner does it; the job is APPLYING when this answers). */
  async apply(id: number, caller: Principal): Promise<CurationJob> {
    return this.startWriting(await this.find(id, caller), 'apply', 'apply', { appliedBy: caller.username });
  }

  /**
   * Writes the inverse of an applied job's changes; also of a FAILED job that wrote some (an LDP apply stopped
   * part way: undo writes back exactly the resources it wrote).
   */
  async undo(id: number, caller: Principal): Promise<CurationJob> {
    const job = await this.find(id, caller);
    const partial = job.state === 'FAILED' && (await this.deps.store.items.hasWrittenItems(job.id));
    return this.startWriting(job, 'undo', partial ? 'undoPartial' : 'undo', { undoneBy: caller.username });
  }

  /**
   * A queued job is cancelled at once; a running one stops at its next resource (CANCELLED then); an applying
   * or undoing one stops where that is truthful (DECISIONS.md §9: back to PREVIEWED/APPLIED when nothing was
   * written, FAILED naming what was).
   */
  async cancel(id: number, caller: Principal): Promise<CurationJob> {
    const job = await this.find(id, caller);
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

  /**
   * A QUERY scope has a query, which parses for the view (its INVALID names the position at once, not when
   * the job runs); no other scope takes one. Both listed scopes need search. MEMBERS needs nothing more: a
   * collection without members is a job with nothing to do, which completes and says so.
   */
  private async checkScope(
    body: CheckedBody<CurationJobBody>,
    opened: OpenedView | undefined,
    contextUri: string | undefined,
  ): Promise<void> {
    const { collector } = body;
    const scope = body.get('scope');
    if (scope === undefined) return;
    const query = body.get('query')?.trim() ?? '';
    if (scope !== 'QUERY') {
      if (query !== '' && body.passed('query'))
        collector.add(
          'query',
          'type',
          `Only a QUERY-scoped curation job takes a query, not a ${scope}-scoped one`,
        );
      if (isListedScope(scope) && this.deps.scopes === undefined)
        collector.add('scope', 'type', noSearch(scope));
      return;
    }
    if (!body.passed('query')) return;
    if (query === '') {
      collector.add(
        'query',
        'required',
        'A QUERY-scoped curation job requires a query (SUBTREE is every resource below contextUri)',
      );
      return;
    }
    const finder = this.deps.scopes;
    if (finder === undefined) {
      collector.add('scope', 'type', noSearch(scope));
      return;
    }
    if (opened === undefined || contextUri === undefined) return;
    // The parse is the finder's (with the view's schemas); asking for the first hit runs it, and a
    // query the index refuses (its regular expression past the bounds) is told here too.
    const hits = finder.matching(opened.view.id, contextUri, query)[Symbol.asyncIterator]();
    try {
      await hits.next();
    } catch (error) {
      if (!(error instanceof InvalidQueryError)) throw error;
      // As GET …/search tells it: `pattern` names the problem and where, `position` is the offset alone.
      addQueryError(collector, error, 'query');
      return;
    }
    await hits.return?.();
  }

  /** A MAPPING job's operators exist and each names a predicate the view can name. */
  private async checkOperators(
    ids: readonly number[],
    opened: OpenedView | undefined,
    body: CheckedBody<CurationJobBody>,
  ): Promise<void> {
    const collector = body.collector;
    if (ids.length === 0) {
      collector.add('operators', 'required', 'A MAPPING job requires at least one operator');
      return;
    }
    const found = await this.deps.operators(ids);
    const unknown = [...new Set(ids)].filter((id) => !found.some((operator) => operator.id === id));
    if (unknown.length > 0)
      collector.add('operators', 'exists', unknown.map((id) => msg.doesNotExist('Operator', id)).join('; '));
    if (opened === undefined) return;
    const naming = new FieldNaming(opened.schemas);
    const unnamed = found.filter((operator) => naming.predicateOf(operator.field) === undefined);
    if (unnamed.length > 0) {
      const abbreviations = opened.schemas.map((schema) => schema.abbreviation).join(', ') || 'none';
      collector.add(
        'operators',
        'pattern',
        unnamed
          .map(
            (operator) =>
              `Operator ${operator.id} (${operator.name}) has the field "${operator.field}", which is neither abbreviation:localName of one of the view's schemas (${abbreviations}) nor an absolute IRI${suggestion(operator.field, naming)}`,
          )
          .join('; '),
      );
    }
  }
}

function noSearch(scope: JobScope): string {
  return `A ${scope}-scoped curation job needs search, which this service was started without`;
}

/**
 * For a bare field name (`title`, as `POST /operators/apply` documents use): the prefixed names a job would
 * match, since such an operator matches nothing in a job.
 */
function suggestion(field: string, naming: FieldNaming): string {
  if (!/^[^\s:/#?]+$/u.test(field)) return '';
  const names = naming.prefixedNamesFor(field);
  if (names.length === 0) return '';
  return `; a job names fields by prefixed name, so it matches nothing in a job: use ${names.join(' or ')}`;
}
