import type { Kysely } from 'kysely';
import { newActor, runAs, type AuditActor } from '../../audit/audit-actor.js';
import type { AuditAction, AuditDetail, AuditEntry } from '../../audit/audit-event.js';
import type { AuditLog } from '../../audit/audit-log.js';
import { tripleLines } from '../../audit/audit-triples.js';
import type { Database } from '../../db/database.js';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import type { CurationJobStore, JobRecord } from '../curation-job.store.js';
import type { NewJobItem } from '../curation-job-items.store.js';
import { isNewChildKey, type StoredChange } from '../work/job-work.js';

/**
 * A job's part of the audit ledger (DECISIONS.md §14, issue 30): every resource an apply or undo writes is
 * one `job.apply` / `job.undo` event, every binary a FIXITY job checks one `fixity.check`, as the person who
 * asked, with the job's id and view.
 *
 * Recorded once, whoever records it. Each write (each check) runs as an actor of its own (`act`): the
 * embedded repository of this process records the write itself, in the write's database transaction (held
 * until its repository transaction commits), and counts it on that actor; for any other repository
 * (Fedora, LDP) the actor's count stays 0 and the runner appends the event itself — in the same database
 * transaction that marks the item written (or stores the check), never before the write succeeded and, in
 * a repository transaction, only after it committed. A resource a resumed attempt finds written by an
 * earlier one (which stopped before marking it) is looked up in the ledger: recorded only when the job's
 * last event of that resource is not this phase's already.
 */
export class JobLedger {
  /** The actor of the phase as a whole (a repository transaction's begin and commit). */
  readonly phaseActor: AuditActor;
  private readonly username: string | null;
  private readonly action: AuditAction | undefined;
  /** Written (checked) by this attempt and recorded by the repository itself: nothing to append. */
  private readonly byRepository = new Set<string>();
  /** Written (checked) by this attempt, recorded by nobody yet: the runner appends them. */
  private readonly unrecorded = new Set<string>();
  /** Recorded (or found recorded) by this attempt: never again. */
  private readonly settled = new Set<string>();

  constructor(
    private readonly audit: AuditLog,
    private readonly job: JobRecord,
    phase: 'RUN' | 'APPLY' | 'UNDO',
  ) {
    this.username = phase === 'APPLY' ? job.appliedBy : phase === 'UNDO' ? job.undoneBy : job.createdByName;
    this.action = phase === 'APPLY' ? 'job.apply' : phase === 'UNDO' ? 'job.undo' : undefined;
    this.phaseActor = this.actorFor(undefined);
  }

  /** Runs one resource's write (or check) as its own actor; notes who recorded it once it succeeded. */
  async act<T>(key: string, work: () => Promise<T>): Promise<T> {
    const actor = this.actorFor(isNewChildKey(key) ? undefined : key);
    const result = await runAs(actor, work);
    if (actor.recorded > 0) this.byRepository.add(key);
    else this.unrecorded.add(key);
    return result;
  }

  /**
   * Appends, inside `trx` (which also marks them written), the events of `changes` written and not yet
   * recorded; `created` names the resources `+` rows created, by key. Answers how many were appended.
   */
  async recordWrites(
    changes: readonly StoredChange[],
    created: ReadonlyMap<string, string>,
    trx: Kysely<Database>,
  ): Promise<number> {
    const action = this.action;
    if (action === undefined) return 0;
    const pending: { uri: string; detail: AuditDetail; key: string }[] = [];
    for (const change of changes) {
      const key = change.contextUri;
      if (isEmptyChange(change) || this.settled.has(key) || this.byRepository.has(key)) continue;
      const entry = writeEventOf(change, created);
      if (entry !== undefined) pending.push({ ...entry, key });
    }
    // Written by an earlier attempt that stopped before marking them: recorded then, unless the job's
    // last event of the resource is already this phase's.
    const earlier = pending.filter(({ key }) => !this.unrecorded.has(key)).map(({ uri }) => uri);
    const recordedBefore = await this.lastActions(trx, earlier);
    const entries = pending.flatMap(({ uri, detail, key }) =>
      !this.unrecorded.has(key) && recordedBefore.get(uri) === action
        ? []
        : [this.entry(action, uri, detail, 'SUCCESS')],
    );
    await this.audit.append(entries, trx);
    for (const { key } of pending) this.settled.add(key);
    return entries.length;
  }

  /**
   * A COPY phase's write of `uri` (a copy created, or one its undo deleted; `detail` says which) is stored
   * by the copy engine: its event is appended now unless the repository recorded it itself (this
   * process's embedded repository) or this attempt recorded it already. (Not in the transaction of the
   * engine's plan row: a crash between the two can leave a copy without its event, never an event
   * without its copy.)
   */
  async recordCopy(uri: string, detail: AuditDetail): Promise<void> {
    const action = this.action;
    if (action === undefined || this.settled.has(uri) || !this.unrecorded.has(uri)) return;
    this.settled.add(uri);
    await this.audit.append([this.entry(action, uri, detail, 'SUCCESS')]);
    this.appended(1);
  }

  /**
   * Appends, inside `trx` (which also stores the items), a `fixity.check` for each binary this attempt
   * checked that the repository did not record itself. Answers how many were appended.
   */
  async recordChecks(checks: readonly NewJobItem[], trx: Kysely<Database>): Promise<number> {
    const entries: AuditEntry[] = [];
    for (const check of checks) {
      const uri = check.contextUri;
      const status = check.fixityStatus;
      if (status == null || !this.unrecorded.has(uri) || this.settled.has(uri)) continue;
      const size =
        check.size == null || !/^\d+$/.test(check.size) ? (check.size ?? null) : Number(check.size);
      entries.push(
        this.entry(
          'fixity.check',
          uri,
          {
            status,
            digest: check.messageDigest ?? null,
            size,
            ...(check.error != null && { error: check.error }),
          },
          status === 'SUCCESS' ? 'SUCCESS' : 'FAILURE',
        ),
      );
    }
    await this.audit.append(entries, trx);
    for (const entry of entries) if (entry.contextUri !== null) this.settled.add(entry.contextUri);
    return entries.length;
  }

  /**
   * Marks `uris` (keys of `changes`; all of them when undefined) written and records them, in one
   * database transaction.
   */
  async markWritten(
    store: CurationJobStore,
    phase: 'APPLY' | 'UNDO',
    changes: readonly StoredChange[],
    created: ReadonlyMap<string, string>,
    uris?: readonly string[],
  ): Promise<void> {
    const keys = uris === undefined ? undefined : new Set(uris);
    const marked = keys === undefined ? changes : changes.filter((change) => keys.has(change.contextUri));
    const appended = await store.inTransaction(async (items, trx) => {
      await items.markWritten(this.job.id, phase, uris);
      return this.recordWrites(marked, created, trx);
    });
    this.appended(appended);
  }

  /** Stores a FIXITY run's items and records their checks, in one database transaction. */
  async storeChecks(
    store: CurationJobStore,
    batch: readonly { readonly position: number; readonly item: NewJobItem }[],
  ): Promise<void> {
    const appended = await store.inTransaction(async (items, trx) => {
      await items.insertItems(this.job.id, batch);
      return this.recordChecks(
        batch.map((entry) => entry.item),
        trx,
      );
    });
    this.appended(appended);
  }

  /** Tells the ledger's readers (the audit channel) once the transaction that appended committed. */
  private appended(count: number): void {
    if (count > 0) this.audit.notifyAppended();
  }

  private actorFor(contextUri: string | undefined): AuditActor {
    return newActor({
      username: this.username,
      requestId: null,
      repositoryViewId: this.job.repositoryViewId,
      jobId: this.job.id,
      ...(contextUri !== undefined && { contextUri }),
      ...(this.action !== undefined && { action: this.action }),
    });
  }

  private entry(
    action: AuditAction,
    contextUri: string,
    detail: AuditDetail,
    outcome: AuditEntry['outcome'],
  ): AuditEntry {
    return {
      username: this.username,
      action,
      repositoryViewId: this.job.repositoryViewId,
      contextUri,
      jobId: this.job.id,
      requestId: null,
      outcome,
      detail,
    };
  }

  /** The action of this job's last event of each resource (only asked after a resumed attempt). */
  private async lastActions(trx: Kysely<Database>, uris: readonly string[]): Promise<Map<string, string>> {
    const last = new Map<string, string>();
    for (let start = 0; start < uris.length; start += 400) {
      const rows = await trx
        .selectFrom('audit_events')
        .select(['context_uri', 'action'])
        .where('job_id', '=', this.job.id)
        .where('context_uri', 'in', uris.slice(start, start + 400))
        .orderBy('id')
        .execute();
      for (const row of rows) if (row.context_uri !== null) last.set(row.context_uri, row.action);
    }
    return last;
  }
}

/** A write's event: its resource and `{removed, added}` as written (a created or deleted one says so). */
function writeEventOf(
  change: StoredChange,
  created: ReadonlyMap<string, string>,
): { uri: string; detail: AuditDetail } | undefined {
  if (change.create !== undefined) {
    const uri = created.get(change.contextUri) ?? change.create.createdUri ?? undefined;
    if (uri === undefined) return undefined;
    const subject = namedNode(uri);
    const added = change.add.map((q) => quad(subject, q.predicate, q.object));
    return { uri, detail: { removed: [], added: tripleLines(added), created: true } };
  }
  const detail = { removed: tripleLines(change.remove), added: tripleLines(change.add) };
  if (change.deleteCreated === true) return { uri: change.contextUri, detail: { ...detail, deleted: true } };
  return { uri: change.contextUri, detail };
}

function isEmptyChange(change: StoredChange): boolean {
  return change.remove.length === 0 && change.add.length === 0;
}
