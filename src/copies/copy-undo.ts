import type { JobTarget } from '../curation-jobs/work/job-work.js';
import { forEachBounded } from '../curation-jobs/work/bounded-pool.js';
import type { CopyItem, CopyItemStore, CopyItemUpdate } from './copy-items.store.js';
import { LISTED_IN_MESSAGE, messageOf } from './copy-plan.js';
import { toResult } from './copy-report.js';
import { userSnapshot } from './iri-rewrite.js';
import type { CopyOutcome, CopyRequest, CopySink } from './job-copies.js';
import { describeIfThere } from './target-writes.js';

type Undone = CopyItemUpdate & { readonly outcome: 'REMOVED' | 'KEPT' };

/**
 * The UNDO phase of a COPY job (DECISIONS.md §16): deletes the copies the apply created, deepest first, up
 * to `request.concurrency` at once, each only while its user statements are exactly the snapshot taken
 * when it was copied and it holds no resource (a container still holding children — someone else's, or a
 * copy kept — is KEPT). Whatever is kept says why. `copied` in the outcome counts the copies removed,
 * `failed` those kept.
 */
export async function undoCopy(
  store: CopyItemStore,
  request: CopyRequest,
  target: JobTarget,
  sink: CopySink,
): Promise<CopyOutcome> {
  const stopped = { cancelled: false };
  const stop = () => (stopped.cancelled ||= sink.cancelled());
  try {
    for (let depth = await store.maxDepth(request.jobId); depth >= 0 && !stop(); depth--) {
      const rows = await store.atDepth(request.jobId, depth, ['COPIED']);
      await forEachBounded(
        rows,
        request.concurrency,
        async (row) => {
          const undone = await undoOne(target, sink, row);
          await store.update(request.jobId, row.sourceUri, undone);
          await sink.progressed(toResult({ ...row, ...undone }));
        },
        stop,
      );
    }
  } catch (error) {
    return { ended: 'FAILED', message: `The undo stopped: ${messageOf(error)}` };
  }
  const removed = await store.withOutcome(request.jobId, ['REMOVED']);
  const kept = await store.withOutcome(request.jobId, ['KEPT']);
  if (stopped.cancelled)
    return { ended: 'CANCELLED', message: `${removed.length} copies were removed before the cancel` };
  const keptPart =
    kept.length === 0
      ? ''
      : `; ${kept.length} kept: ${kept
          .slice(0, LISTED_IN_MESSAGE)
          .map((row) => `${row.targetUri} (${row.error ?? ''})`)
          .join(', ')}${kept.length > LISTED_IN_MESSAGE ? ', …' : ''}`;
  return {
    ended: 'DONE',
    copied: removed.length,
    failed: kept.length,
    message: `Removed ${removed.length} copies${keptPart}`,
  };
}

async function undoOne(target: JobTarget, sink: CopySink, row: CopyItem): Promise<Undone> {
  try {
    const there = await describeIfThere(target.adapter, row.targetUri);
    if (there === undefined) return { outcome: 'REMOVED', error: `${row.targetUri} was gone already` };
    if (there.children.length > 0)
      return {
        outcome: 'KEPT',
        error: `It holds ${there.children.length} resource(s) this undo did not remove: ${there.children.slice(0, LISTED_IN_MESSAGE).join(', ')}`,
      };
    if (row.snapshot !== null && userSnapshot(there) !== row.snapshot)
      return { outcome: 'KEPT', error: 'Its metadata changed since the copy' };
    await sink.act(row.targetUri, () => target.adapter.delete(row.targetUri));
    return { outcome: 'REMOVED', error: null };
  } catch (error) {
    return { outcome: 'KEPT', error: `It could not be removed: ${messageOf(error)}` };
  }
}
