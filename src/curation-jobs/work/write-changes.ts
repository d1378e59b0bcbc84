import type { Quad } from '@rdfjs/types';
import type {
  RepositoryAdapter,
  ResourceDescription,
  TransactionFacet,
  TransactionInfo,
  TransactionRef,
} from '../../repository-adapters/repository-adapter.js';
import { PreconditionFailedError } from '../../shared/errors.js';
import { forEachBounded } from './bounded-pool.js';
import type { JobTarget, StoredChange, WriteOutcome, WriteSink } from './job-work.js';
import { termKey } from './metadata-document.js';

type Changes = readonly StoredChange[] | AsyncIterable<StoredChange>;
type Mode = 'APPLY' | 'UNDO';

/**
 * The APPLY and UNDO phases of a MAPPING job (DECISIONS.md §9): writes a stored change-set (for UNDO the
 * runner has already swapped each change's removed and added triples).
 *
 * Where the repository transacts (FEDORA), everything happens in one transaction: each resource is read in
 * it and checked — APPLY: its ETag is still the one the change was computed against; UNDO (or no ETag): it
 * still holds every triple the change removes and none it adds — then written in it. One conflict and the
 * transaction is rolled back after every resource was checked, so all conflicts are listed and nothing is
 * written; any failure rolls back too. Elsewhere (LDP) each resource is written with `If-Match`, one at a time
 * so that each write is persisted through `sink.written` before the next, and the first conflict or failure
 * stops the job with exactly the written resources reported.
 */
export async function writeChanges(
  target: JobTarget,
  changes: Changes,
  mode: Mode,
  sink: WriteSink,
  concurrency: number,
): Promise<WriteOutcome> {
  const transactions = target.adapter.transactions;
  return transactions === undefined
    ? writeOneByOne(target.adapter, changes, mode, sink)
    : writeInTransaction(target.adapter, transactions, changes, mode, sink, concurrency);
}

async function writeInTransaction(
  adapter: RepositoryAdapter,
  transactions: TransactionFacet,
  changes: Changes,
  mode: Mode,
  sink: WriteSink,
  concurrency: number,
): Promise<WriteOutcome> {
  let begun: TransactionInfo;
  try {
    begun = await transactions.begin();
  } catch (error) {
    return failed([], `The repository transaction could not be begun: ${messageOf(error)}`);
  }
  const tx: TransactionRef = { id: begun.id };
  const keepAlive = keeper(transactions, tx, begun);
  const conflicts: string[] = [];
  let count = 0;
  const stopped = { cancelled: false };
  try {
    await forEachBounded(
      changes,
      concurrency,
      async (change) => {
        if (isEmpty(change)) return;
        await keepAlive();
        const description = await step(change, 'read', () => adapter.describe(change.contextUri, tx));
        if (hasConflict(change, description, mode)) {
          conflicts.push(change.contextUri);
          return;
        }
        // After a conflict the rest is only checked, so that every conflict is listed.
        if (conflicts.length > 0) return;
        await step(change, 'written', () =>
          adapter.updateTriples(change.contextUri, change.remove, change.add, tx),
        );
        count += 1;
      },
      () => (stopped.cancelled ||= sink.cancelled()),
    );
  } catch (error) {
    return failed([], `${messageOf(error)}; nothing was written${await rollback(transactions, tx)}`);
  }
  if (stopped.cancelled) {
    return failed([], `The job was cancelled; nothing was written${await rollback(transactions, tx)}`);
  }
  if (conflicts.length > 0) {
    const rolledBack = await rollback(transactions, tx);
    return {
      ended: 'CONFLICT',
      conflicts,
      message: `${conflicts.length} resource(s) changed since the preview: ${conflicts.join(', ')}; nothing was written${rolledBack}`,
    };
  }
  try {
    await transactions.commit(tx);
  } catch (error) {
    return failed([], `The repository transaction could not be committed: ${messageOf(error)}`);
  }
  return { ended: 'WRITTEN', count };
}

async function writeOneByOne(
  adapter: RepositoryAdapter,
  changes: Changes,
  mode: Mode,
  sink: WriteSink,
): Promise<WriteOutcome> {
  const written: string[] = [];
  for await (const change of changes) {
    if (sink.cancelled()) return failed(written, `The job was cancelled${afterWritten(written)}`);
    if (isEmpty(change)) continue;
    const uri = change.contextUri;
    try {
      // UNDO (or a change without an ETag) checks the content, then writes against the ETag it just read.
      let ifMatch = mode === 'APPLY' ? (change.etag ?? undefined) : undefined;
      if (ifMatch === undefined) {
        const description = await step(change, 'read', () => adapter.describe(uri));
        if (hasConflict(change, description, 'UNDO')) return conflict(uri, written);
        ifMatch = description.etag;
      }
      await step(change, 'written', () =>
        adapter.updateTriples(uri, change.remove, change.add, undefined, { ifMatch }),
      );
    } catch (error) {
      if (error instanceof PreconditionFailedError) return conflict(uri, written);
      return failed(written, `${messageOf(error)}${afterWritten(written)}`);
    }
    written.push(uri);
    await sink.written(uri);
  }
  return { ended: 'WRITTEN', count: written.length };
}

/** Whether the resource is no longer as the change expects it. */
function hasConflict(change: StoredChange, description: ResourceDescription, mode: Mode): boolean {
  const current = description.etag;
  if (mode === 'APPLY' && change.etag !== null && current !== undefined)
    return opaqueTag(current) !== opaqueTag(change.etag);
  const held = new Set(
    description.quads.filter((q) => q.subject.value === change.contextUri).map((q) => tripleKey(q)),
  );
  return change.remove.some((q) => !held.has(tripleKey(q))) || change.add.some((q) => held.has(tripleKey(q)));
}

/** An ETag without its weakness mark: a repository may weaken a tag it served strong (compression). */
function opaqueTag(etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag;
}

function tripleKey(q: Quad): string {
  return `${q.subject.value}\n${q.predicate.value}\n${termKey(q.object)}`;
}

function isEmpty(change: StoredChange): boolean {
  return change.remove.length === 0 && change.add.length === 0;
}

/** Runs one repository call for a change; a failure names the resource and what was being done. */
async function step<T>(change: StoredChange, doing: 'read' | 'written', call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PreconditionFailedError) throw error;
    throw new Error(`${change.contextUri} could not be ${doing}: ${messageOf(error)}`, { cause: error });
  }
}

function conflict(uri: string, written: readonly string[]): WriteOutcome {
  const message = `${uri} changed since the preview`;
  // CONFLICT means nothing was written; once something was, the outcome must say what.
  return written.length === 0
    ? { ended: 'CONFLICT', conflicts: [uri], message: `${message}; nothing was written` }
    : failed(written, `${message}${afterWritten(written)}`);
}

function failed(written: readonly string[], message: string): WriteOutcome {
  return { ended: 'FAILED', written, message };
}

function afterWritten(written: readonly string[]): string {
  return written.length === 0
    ? '; nothing was written'
    : `; ${written.length} resource(s) had been written before and stay written`;
}

/** Rolls back, answering what to add to the message when even that failed (the repository expires it). */
async function rollback(transactions: TransactionFacet, tx: TransactionRef): Promise<string> {
  try {
    await transactions.rollback(tx);
    return ' (the transaction was rolled back)';
  } catch (error) {
    return ` (the transaction could not be rolled back and will expire: ${messageOf(error)})`;
  }
}

/**
 * Keeps a long transaction alive: once half its lifetime has passed, the next resource refreshes it first
 * (one refresh at a time, however many resources are in flight).
 */
function keeper(transactions: TransactionFacet, tx: TransactionRef, begun: TransactionInfo) {
  let info = begun;
  const halfLife = Math.max(0, begun.expiresAt - Date.now()) / 2;
  let refreshing: Promise<void> | undefined;
  return async (): Promise<void> => {
    if (Date.now() < info.expiresAt - halfLife) return;
    refreshing ??= transactions.refresh(tx).then(
      (renewed) => {
        info = renewed;
        refreshing = undefined;
      },
      (error: unknown) => {
        refreshing = undefined;
        throw new Error(`The repository transaction could not be kept open: ${messageOf(error)}`);
      },
    );
    await refreshing;
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
