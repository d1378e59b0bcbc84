import type { JobTarget } from '../curation-jobs/work/job-work.js';
import { forEachBounded } from '../curation-jobs/work/bounded-pool.js';
import { TargetExistsError } from '../repository-adapters/named-children.js';
import type { ResourceDescription } from '../repository-adapters/repository-adapter.js';
import {
  sourceDigests,
  sourceMismatch,
  streamBinary,
  checkArrival,
  RefusedBytesError,
  type ArrivalCheck,
} from './copy-binary.js';
import type { CopyItem, CopyItemStore, CopyItemUpdate } from './copy-items.store.js';
import { lastSegment } from './copy-targets.js';
import { LISTED_IN_MESSAGE, messageOf } from './copy-plan.js';
import { toResult } from './copy-report.js';
import {
  copyStatements,
  IriRewriter,
  isDerivedFrom,
  missingStatements,
  userSnapshot,
} from './iri-rewrite.js';
import type { CopyOutcome, CopyRequest, CopySink } from './job-copies.js';
import { parseStoredDigest, type StreamDigests } from './stream-digests.js';
import { createNamedChild, describeIfThere, targetExists } from './target-writes.js';

/** What one apply works with. */
interface Applying {
  readonly store: CopyItemStore;
  readonly request: CopyRequest;
  readonly source: JobTarget;
  readonly target: JobTarget;
  readonly sink: CopySink;
  readonly rewriter: IriRewriter;
  /** Targets not created (failed, unreadable, in conflict): their rows' children are not copied either. */
  readonly notCopied: Set<string>;
}

/** A resource's copy ended: its row's outcome and what the report and undo need. */
type Ended = CopyItemUpdate & { readonly outcome: 'COPIED' | 'FAILED' };

/**
 * The APPLY phase of a COPY job (DECISIONS.md §16): creates the planned copies level by level, parents
 * before children, up to `request.concurrency` at once. Each row is marked WRITING (persisted) before any of
 * its requests is sent and COPIED (or FAILED) after, so a resumed apply checks only the WRITING rows'
 * targets: one that exists and carries `prov:wasDerivedFrom <source>` is finished (its metadata completed,
 * a binary's bytes checked again), else it is created. Nothing is copied twice. Binaries stream source →
 * target and are checked on arrival; a mismatch removes the copy and fails that resource, the others go on.
 */
export async function applyCopy(
  store: CopyItemStore,
  request: CopyRequest,
  source: JobTarget,
  target: JobTarget,
  sink: CopySink,
): Promise<CopyOutcome> {
  const { jobId } = request;
  const stillThere = await recheckConflicts(store, request, target);
  if (stillThere.length > 0)
    return {
      ended: 'FAILED',
      message: `${stillThere.length} target(s) exist already: ${stillThere.slice(0, LISTED_IN_MESSAGE).join(', ')}; nothing was written`,
    };
  const notCopied = new Set(
    (await store.withOutcome(jobId, ['FAILED', 'UNREADABLE', 'CONFLICT'])).map((row) => row.targetUri),
  );
  const applying: Applying = {
    store,
    request,
    source,
    target,
    sink,
    rewriter: new IriRewriter(await store.targets(jobId)),
    notCopied,
  };
  const stopped = { cancelled: false };
  const stop = () => (stopped.cancelled ||= sink.cancelled());
  const deepest = await store.maxDepth(jobId);
  try {
    for (let depth = 0; depth <= deepest && !stop(); depth++) {
      const rows = await store.atDepth(jobId, depth, ['PLANNED', 'WRITING']);
      await forEachBounded(rows, request.concurrency, (row) => copyOne(applying, row), stop);
    }
  } catch (error) {
    return { ended: 'FAILED', message: `The copy stopped: ${messageOf(error)}` };
  }
  if (stopped.cancelled)
    return {
      ended: 'CANCELLED',
      message: `${await copiedSoFar(store, jobId)} resources were copied before the cancel`,
    };
  return finalOutcome(store, jobId);
}

/** Copies one row, recording its outcome; a failure fails this resource only. */
async function copyOne(applying: Applying, row: CopyItem): Promise<void> {
  const { store, sink, request } = applying;
  let ended: Ended;
  if (applying.notCopied.has(row.parentTargetUri)) {
    ended = { outcome: 'FAILED', error: `Its container ${row.parentTargetUri} was not copied` };
  } else {
    try {
      if (row.outcome !== 'WRITING') await store.update(request.jobId, row.sourceUri, { outcome: 'WRITING' });
      ended = await (row.outcome === 'WRITING' ? resume(applying, row) : create(applying, row));
    } catch (error) {
      // Something appeared at the target since the plan: it is not ours, and is never replaced.
      const why =
        error instanceof TargetExistsError
          ? `${row.targetUri} exists (it appeared after the plan) and was left as it is`
          : messageOf(error);
      ended = {
        outcome: 'FAILED',
        error: `${row.sourceUri} could not be copied to ${row.targetUri}: ${why}`,
      };
    }
  }
  if (ended.outcome === 'FAILED') applying.notCopied.add(row.targetUri);
  await store.update(request.jobId, row.sourceUri, ended);
  await sink.progressed(toResult({ ...row, ...ended }));
}

/** Creates the copy of a row not written before. */
async function create(applying: Applying, row: CopyItem): Promise<Ended> {
  const { source, target, sink } = applying;
  const description = await source.adapter.describe(row.sourceUri);
  const wanted = copyStatements(description, row.targetUri, applying.rewriter);
  const name = lastSegment(row.targetUri);
  if (row.kind === 'CONTAINER') {
    const uri = await sink.act(row.targetUri, () =>
      createNamedChild(target.adapter, row.parentTargetUri, name, wanted.statements),
    );
    checkPlace(row, uri);
    if (wanted.others.length > 0)
      await sink.act(row.targetUri, () => target.adapter.updateTriples(row.targetUri, [], wanted.others));
    return copied(applying, row);
  }
  let streamed;
  try {
    streamed = await streamBinary(source.adapter, target.adapter, { ...row, name }, (upload) =>
      sink.act(row.targetUri, upload),
    );
  } catch (error) {
    if (!(error instanceof RefusedBytesError)) throw error;
    return {
      outcome: 'FAILED',
      digestAlgorithm: error.algorithm,
      digestCheck: 'MISMATCH',
      error: error.message,
    };
  }
  checkPlace(row, streamed.uri);
  return finishBinary(applying, row, streamed.sent, true, description);
}

/**
 * A WRITING row an earlier attempt may have written: its target is checked before anything is sent. A
 * copy that is there and carries `prov:wasDerivedFrom <source>` (or, interrupted before its metadata, holds
 * exactly the source's bytes) is completed; nothing there: created now; anything else: not this job's.
 */
async function resume(applying: Applying, row: CopyItem): Promise<Ended> {
  const { source, target } = applying;
  const there = await describeIfThere(target.adapter, row.targetUri);
  if (there === undefined) return create(applying, row);
  const derived = isDerivedFrom(there, row.sourceUri);
  if (row.kind === 'BINARY')
    return finishBinary(
      applying,
      row,
      await sourceDigests(source.adapter, row.sourceUri),
      derived,
      await source.adapter.describe(row.sourceUri),
    );
  if (!derived && (there.children.length > 0 || userSnapshot(there) !== '')) return notOurs(row);
  await completeMetadata(applying, row, there, await source.adapter.describe(row.sourceUri));
  return copied(applying, row);
}

/**
 * A binary whose bytes are at the target: the bytes sent are checked against the source's digest and what
 * arrived; a mismatch removes the copy (when it is this job's); a match completes its metadata.
 */
async function finishBinary(
  applying: Applying,
  row: CopyItem,
  sent: StreamDigests,
  ours: boolean,
  description: ResourceDescription,
): Promise<Ended> {
  const { target, sink } = applying;
  const held = parseStoredDigest(row.sourceDigest);
  const unreadable = sourceMismatch(row.sourceUri, held, sent);
  const arrival: ArrivalCheck | undefined =
    unreadable === undefined ? await checkArrival(target.adapter, row.targetUri, sent) : undefined;
  if (arrival?.check !== 'MATCH') {
    if (!ours) return notOurs(row);
    await sink.act(row.targetUri, () => target.adapter.delete(row.targetUri));
    return {
      outcome: 'FAILED',
      digestAlgorithm: arrival?.algorithm ?? null,
      digestCheck: 'MISMATCH',
      error:
        unreadable ??
        `The bytes that arrived at ${row.targetUri} do not match the source's: ${arrival?.algorithm} ${arrival?.expected} sent, ${arrival?.found} arrived; the copy was removed`,
    };
  }
  await completeMetadata(applying, row, arrival.there, description);
  // The bytes copied, as counted (a source that states no size, such as a plain LDP server, is told now).
  return {
    ...(await copied(applying, row)),
    bytes: sent.size,
    digestAlgorithm: arrival.algorithm,
    digestCheck: 'MATCH',
  };
}

/** Writes what the copy's metadata still lacks (all of it after an upload; whatever a stop left unwritten). */
async function completeMetadata(
  applying: Applying,
  row: CopyItem,
  there: ResourceDescription,
  description: ResourceDescription,
): Promise<void> {
  const { target, sink } = applying;
  const missing = missingStatements(there, copyStatements(description, row.targetUri, applying.rewriter).all);
  if (missing.length > 0)
    await sink.act(row.targetUri, () => target.adapter.updateTriples(row.targetUri, [], missing));
}

/** The copy is complete: its ETag and user statements as they are now, which undo compares with. */
async function copied(applying: Applying, row: CopyItem): Promise<Ended> {
  const now = await applying.target.adapter.describe(row.targetUri);
  return { outcome: 'COPIED', error: null, targetEtag: now.etag ?? null, snapshot: userSnapshot(now) };
}

function notOurs(row: CopyItem): Ended {
  return {
    outcome: 'FAILED',
    error: `${row.targetUri} exists and is not this job's copy of ${row.sourceUri}`,
  };
}

/** The adapter created the copy where the plan said, or the plan's IRIs (and rewritten links) would be wrong. */
function checkPlace(row: CopyItem, created: string): void {
  const trim = (uri: string) => (uri.endsWith('/') ? uri.slice(0, -1) : uri);
  if (trim(created) !== trim(row.targetUri))
    throw new Error(`The target created ${created} instead of ${row.targetUri}`);
}

/**
 * Conflicts of the plan whose target is gone now become planned again; answers the targets that still
 * exist. A listed scope's second hit of one name stays a conflict (not copied) without stopping the rest:
 * its target is the first hit's copy.
 */
async function recheckConflicts(
  store: CopyItemStore,
  request: CopyRequest,
  target: JobTarget,
): Promise<string[]> {
  const still: string[] = [];
  const conflicts = await store.withOutcome(request.jobId, ['CONFLICT']);
  if (conflicts.length === 0) return still;
  const others = new Set<string>();
  for await (const row of store.all(request.jobId)) if (row.outcome !== 'CONFLICT') others.add(row.targetUri);
  await forEachBounded(conflicts, request.concurrency, async (row) => {
    if (others.has(row.targetUri)) return;
    if (await targetExists(target.adapter, row.targetUri)) still.push(row.targetUri);
    else await store.update(request.jobId, row.sourceUri, { outcome: 'PLANNED', error: null });
  });
  return still;
}

async function copiedSoFar(store: CopyItemStore, jobId: number): Promise<number> {
  return (await store.withOutcome(jobId, ['COPIED'])).length;
}

/** The job's outcome from its rows: DONE with the numbers, FAILED when nothing could be copied. */
async function finalOutcome(store: CopyItemStore, jobId: number): Promise<CopyOutcome> {
  const copiedRows = await store.withOutcome(jobId, ['COPIED']);
  const failedRows = await store.withOutcome(jobId, ['FAILED', 'UNREADABLE']);
  const bytes = copiedRows.reduce((sum, row) => sum + (row.kind === 'BINARY' ? (row.bytes ?? 0) : 0), 0);
  const verified = copiedRows.filter((row) => row.digestCheck === 'MATCH').length;
  const mismatched = failedRows.filter((row) => row.digestCheck === 'MISMATCH');
  const failedPart =
    failedRows.length === 0
      ? '0 failed'
      : `${failedRows.length} failed: ${failedRows
          .slice(0, LISTED_IN_MESSAGE)
          .map((row) => row.sourceUri)
          .join(', ')}${failedRows.length > LISTED_IN_MESSAGE ? ', …' : ''}`;
  const mismatchPart =
    mismatched.length === 0
      ? ''
      : `; ${mismatched.length} ${mismatched.length === 1 ? 'binary' : 'binaries'} did not match on arrival and ${mismatched.length === 1 ? 'is' : 'are'} not kept in the target: ${mismatched.map((row) => row.targetUri).join(', ')}`;
  const message = `Copied ${copiedRows.length} ${copiedRows.length === 1 ? 'resource' : 'resources'} (${bytes} bytes, ${verified} ${verified === 1 ? 'binary' : 'binaries'} verified on arrival); ${failedPart}${mismatchPart}; versions are not copied, only each resource's current state`;
  if (copiedRows.length === 0 && failedRows.length > 0) return { ended: 'FAILED', message };
  return { ended: 'DONE', copied: copiedRows.length, failed: failedRows.length, message };
}
