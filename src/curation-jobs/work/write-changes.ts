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
import { FieldNaming } from './field-naming.js';
import { actFor, type JobTarget, type StoredChange, type WriteOutcome, type WriteSink } from './job-work.js';
import { termKey } from './metadata-document.js';
import { closed, keeper, rollback } from './transaction-upkeep.js';
import { checkCreation, creationSubject, isCreation, updatesFirst, writeCreation } from './write-created.js';

type Changes = readonly StoredChange[] | AsyncIterable<StoredChange>;
type Mode = 'APPLY' | 'UNDO';

/**
 * The APPLY and UNDO phases of a MAPPING or SPREADSHEET job (DECISIONS.md §9, §13): writes a stored
 * change-set (for UNDO the runner has already swapped each change's removed and added triples). A
 * SPREADSHEET `+` row's change creates a resource, its undo deletes it (write-created.ts): checked with the
 * others, written after every update.
 *
 * Where the repository transacts (FEDORA), everything happens in one transaction: every resource is read in
 * it and checked — APPLY: its ETag is still the one the change was computed against; UNDO (or no ETag): it
 * still holds every triple the change removes and none it adds — and then, only when none conflicts, every
 * one is written in it. One conflict and the transaction is rolled back after every resource was checked,
 * so all conflicts are listed and nothing is written; any failure rolls back too. Elsewhere (LDP) each
 * resource is written with `If-Match`, up to `concurrency` at once, in batches: a batch is marked as being
 * written (`sink.writing`) before any of its requests is sent, and what was written (or not) is persisted
 * when its requests have ended, so a stop at any point knows exactly what was written, or which few
 * resources to check. The first conflict or failure stops the job (the writes in flight still end) with
 * exactly the written resources reported.
 */
export async function writeChanges(
  target: JobTarget,
  changes: Changes,
  mode: Mode,
  sink: WriteSink,
  concurrency: number,
): Promise<WriteOutcome> {
  const transactions = target.adapter.transactions;
  const naming = new FieldNaming(target.schemas);
  const writer: Writer = { adapter: target.adapter, naming, mode, sink, createdAs: new Map() };
  return transactions === undefined
    ? writeInBatches(writer, changes, concurrency)
    : writeInTransaction(writer, transactions, changes, concurrency);
}

/** What every write of one phase goes through. */
interface Writer {
  readonly adapter: RepositoryAdapter;
  /** Tells metadata from server-managed triples (the undo of a created resource checks its metadata). */
  readonly naming: FieldNaming;
  readonly mode: Mode;
  readonly sink: WriteSink;
  /** LDP: the resources created so far by key (`+N`), so what was written is told by IRI. */
  readonly createdAs: Map<string, string>;
}

async function writeInTransaction(
  { adapter, naming, mode, sink }: Writer,
  transactions: TransactionFacet,
  changes: Changes,
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
  const stop = () => (stopped.cancelled ||= sink.cancelled());
  try {
    // Recorded before anything is staged (a runner that takes the job over rolls it back first).
    if (sink.opened !== undefined && !(await sink.opened(tx))) stopped.cancelled = true;
    // Every resource is checked before any is written: a conflict then stages no write at all, and the
    // embedded repository serves the reads faster before the transaction holds staged writes (bench:jobs,
    // 1 000 records: read-then-write per record cost about 0.7 s more than all reads, then all writes).
    const toWrite: StoredChange[] = [];
    const creations: StoredChange[] = [];
    await forEachBounded(
      changes,
      concurrency,
      async (change) => {
        if (isEmpty(change)) return;
        await keepAlive();
        if (isCreation(change)) {
          const check = await checkCreation(adapter, change, naming, tx);
          if (check === 'conflict') conflicts.push(creationSubject(change));
          else if (check === 'write') creations.push(change);
          else count += 1;
          return;
        }
        const description = await step(change, 'read', () => adapter.describe(change.contextUri, tx));
        if (hasConflict(change, description, mode)) conflicts.push(change.contextUri);
        else toWrite.push(change);
      },
      stop,
    );
    if (conflicts.length === 0 && !stopped.cancelled) {
      await forEachBounded(
        toWrite,
        concurrency,
        async (change) => {
          await keepAlive();
          await step(change, 'written', () =>
            actFor(sink, change.contextUri, () =>
              adapter.updateTriples(change.contextUri, change.remove, change.add, tx),
            ),
          );
          count += 1;
        },
        stop,
      );
      // After every update (a container's own change is not disturbed by its new children), in the one
      // transaction: a rollback takes the created resources with it.
      await forEachBounded(
        creations,
        concurrency,
        async (change) => {
          await keepAlive();
          await actFor(sink, change.contextUri, () => writeCreation(adapter, change, naming, sink, tx));
          count += 1;
        },
        stop,
      );
    }
  } catch (error) {
    return failed([], `${messageOf(error)}; nothing was written${await rollback(transactions, tx, sink)}`);
  }
  if (stopped.cancelled) {
    return { ended: 'CANCELLED', message: `nothing was written${await rollback(transactions, tx, sink)}` };
  }
  if (conflicts.length > 0) {
    const rolledBack = await rollback(transactions, tx, sink);
    return {
      ended: 'CONFLICT',
      conflicts,
      written: [],
      message: `${conflicts.length} resource(s) changed since the preview: ${conflicts.join(', ')}; nothing was written${rolledBack}`,
    };
  }
  // A runner whose job was taken over must not commit what the new runner rolled back (or will).
  let mayCommit: boolean;
  try {
    mayCommit = (await sink.mayCommit?.(tx)) ?? true;
  } catch (error) {
    const rolledBack = await rollback(transactions, tx, sink);
    return failed(
      [],
      `The job's lease could not be checked: ${messageOf(error)}; nothing was written${rolledBack}`,
    );
  }
  if (!mayCommit) {
    const rolledBack = await rollback(transactions, tx, sink);
    return { ended: 'CANCELLED', message: `the job was taken over; nothing was written${rolledBack}` };
  }
  try {
    await transactions.commit(tx);
  } catch (error) {
    return failed([], `The repository transaction could not be committed: ${messageOf(error)}`);
  }
  await closed(sink, tx);
  return { ended: 'WRITTEN', count };
}

/** Resources marked as being written per statement (LDP): one database write before, one after. */
const WRITE_BATCH = 64;

type WriteResult = 'written' | 'conflict' | { readonly error: string };

async function writeInBatches(writer: Writer, changes: Changes, concurrency: number): Promise<WriteOutcome> {
  const { sink } = writer;
  const written: string[] = [];
  const conflicts: string[] = [];
  let failure: string | undefined;
  // An object: TypeScript does not see the closure set it.
  const stopped = { cancelled: false };
  const stop = () =>
    conflicts.length > 0 || failure !== undefined || (stopped.cancelled ||= sink.cancelled());
  for await (const batch of batchesOf(updatesFirst(changes), WRITE_BATCH)) {
    if (stop()) break;
    const uris = batch.map((change) => change.contextUri);
    await sink.writing(uris);
    const done = new Set<string>();
    // A conflict, a failure or a cancel stops the batch: the writes in flight end, the rest are not sent.
    await forEachBounded(
      batch,
      concurrency,
      async (change) => {
        const result = await writeOne(writer, change);
        if (result === 'written') done.add(change.contextUri);
        else if (result === 'conflict')
          conflicts.push(isCreation(change) ? creationSubject(change) : change.contextUri);
        else failure ??= result.error;
      },
      stop,
    );
    const batchWritten = uris.filter((uri) => done.has(uri));
    written.push(...batchWritten.map((uri) => writer.createdAs.get(uri) ?? uri));
    await sink.written(batchWritten);
    await sink.notWritten(uris.filter((uri) => !done.has(uri)));
  }
  if (conflicts.length > 0) {
    const list = conflicts.join(', ');
    return {
      ended: 'CONFLICT',
      conflicts,
      written,
      message:
        written.length === 0
          ? `${list} changed since the preview; nothing was written`
          : `${list} changed since the preview; written before and staying written: ${written.join(', ')}`,
    };
  }
  if (failure !== undefined) return failed(written, `${failure}${afterWritten(written)}`);
  if (stopped.cancelled) {
    // Only a cancel before any write is one: otherwise the job must say what it left written.
    return written.length === 0
      ? { ended: 'CANCELLED', message: 'nothing was written' }
      : failed(written, `The job was cancelled${afterWritten(written)}`);
  }
  return { ended: 'WRITTEN', count: written.length };
}

/** One LDP write with If-Match; never throws (the batch goes on until its writes in flight have ended). */
async function writeOne(writer: Writer, change: StoredChange): Promise<WriteResult> {
  const { adapter, mode } = writer;
  const uri = change.contextUri;
  try {
    if (isCreation(change)) return await createOne(writer, change);
    let description: ResourceDescription | undefined;
    // Maybe written by the attempt that stopped: if the resource holds the change already, it was.
    if (change.uncertain === true) {
      description = await step(change, 'read', () => adapter.describe(uri));
      if (holdsChange(change, description)) return 'written';
    }
    // UNDO (or a change without an ETag) checks the content, then writes against the ETag it just read.
    let ifMatch = mode === 'APPLY' ? (change.etag ?? undefined) : undefined;
    if (ifMatch === undefined) {
      description ??= await step(change, 'read', () => adapter.describe(uri));
      if (hasConflict(change, description, 'UNDO')) return 'conflict';
      ifMatch = description.etag;
    }
    await step(change, 'written', () =>
      actFor(writer.sink, uri, () =>
        adapter.updateTriples(uri, change.remove, change.add, undefined, { ifMatch }),
      ),
    );
    return 'written';
  } catch (error) {
    if (error instanceof PreconditionFailedError) return 'conflict';
    return { error: messageOf(error) };
  }
}

/**
 * One creation (LDP): checked first when there is something to check (a resource created by an earlier
 * attempt; the created resource an undo deletes), then written.
 */
async function createOne(writer: Writer, change: StoredChange): Promise<WriteResult> {
  const { adapter, naming, sink } = writer;
  const check = await checkCreation(adapter, change, naming);
  if (check === 'conflict') return 'conflict';
  const created =
    check === 'write'
      ? await actFor(sink, change.contextUri, () => writeCreation(adapter, change, naming, sink))
      : (change.create?.createdUri ?? undefined);
  if (created !== undefined) writer.createdAs.set(change.contextUri, created);
  return 'written';
}

/**
 * The non-empty changes in batches of at most `size`, read from the source only as they are needed. Updates
 * and creations never share a batch: the creations start once every update has ended, so a conflict among
 * the updates stops them before any resource is created or deleted.
 */
async function* batchesOf(changes: Changes, size: number): AsyncGenerator<StoredChange[]> {
  let batch: StoredChange[] = [];
  for await (const change of changes) {
    if (isEmpty(change)) continue;
    const first = batch[0];
    if (first !== undefined && isCreation(first) !== isCreation(change)) {
      yield batch;
      batch = [];
    }
    batch.push(change);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** Whether the resource holds every triple the change adds and none it removes (the change is made). */
function holdsChange(change: StoredChange, description: ResourceDescription): boolean {
  const held = heldTriples(change, description);
  return (
    change.add.every((q) => held.has(tripleKey(q))) && change.remove.every((q) => !held.has(tripleKey(q)))
  );
}

/** Whether the resource is no longer as the change expects it. */
function hasConflict(change: StoredChange, description: ResourceDescription, mode: Mode): boolean {
  const current = description.etag;
  if (mode === 'APPLY' && change.etag !== null && current !== undefined)
    return opaqueTag(current) !== opaqueTag(change.etag);
  const held = heldTriples(change, description);
  return change.remove.some((q) => !held.has(tripleKey(q))) || change.add.some((q) => held.has(tripleKey(q)));
}

function heldTriples(change: StoredChange, description: ResourceDescription): Set<string> {
  return new Set(
    description.quads.filter((q) => q.subject.value === change.contextUri).map((q) => tripleKey(q)),
  );
}

/** An ETag without its weakness mark: a repository may weaken a tag it served strong (compression). */
export function opaqueTag(etag: string): string {
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

function failed(written: readonly string[], message: string): WriteOutcome {
  return { ended: 'FAILED', written, message };
}

function afterWritten(written: readonly string[]): string {
  return written.length === 0
    ? '; nothing was written'
    : `; ${written.length} resource(s) had been written before and stay written`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
