import type {
  CopyOutcome,
  CopyPlanOutcome,
  CopyRequest,
  CopyResult,
  CopySink,
  JobCopies,
} from '../../../src/copies/job-copies.js';
import type { JobTarget, RunSink } from '../../../src/curation-jobs/work/job-work.js';

/** One call the stand-in was asked, with the roots of the views it was handed (source, target). */
export interface CopyCall {
  readonly phase: 'plan' | 'apply' | 'undo';
  readonly request: CopyRequest;
  readonly sourceRoot: string | null;
  readonly targetRoot: string;
}

/**
 * A STAND-IN for the copy engine (src/copies/, built by another branch): enough of `JobCopies` to test
 * how COPY jobs are wired into the job system — it records what it is asked and keeps its plan rows in
 * memory. Its plan reads the source context (and, for CHILDREN, its children) through the source view's
 * adapter, maps each to `<targetContextUri>/<last segment>` and asks the target view's adapter whether that
 * exists (a conflict then). Its apply and undo write nothing: each row runs through `sink.act` with a no-op
 * and is reported COPIED (REMOVED); `failing` names source IRIs whose copy is reported FAILED, and `gate`,
 * when set, holds the apply before each row until it resolves (a test cancels meanwhile).
 */
export class StandInCopies implements JobCopies {
  readonly calls: CopyCall[] = [];
  /** Keys `sink.act` was called with, in order. */
  readonly acted: string[] = [];
  readonly failing = new Set<string>();
  gate: (() => Promise<void>) | undefined;
  /** When set, the apply stops FAILED after this many rows (a repository gone mid-way). */
  breakAfter: number | undefined;
  private readonly rows = new Map<number, CopyResult[]>();

  async plan(
    request: CopyRequest,
    source: JobTarget,
    target: JobTarget,
    sink: RunSink,
  ): Promise<CopyPlanOutcome> {
    this.calls.push({ phase: 'plan', request, sourceRoot: source.rootUri, targetRoot: target.rootUri });
    const context = await source.adapter.describe(request.contextUri);
    const uris = [
      request.contextUri,
      ...(request.scope === 'RESOURCE' ? [] : context.children.filter((uri) => !sink.isDone(uri))),
    ];
    sink.found(uris.length);
    const rows: CopyResult[] = [];
    let conflicts = 0;
    for (const uri of uris) {
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      const targetUri = `${request.targetContextUri.replace(/\/$/, '')}/${lastSegment(uri)}`;
      const exists = await target.adapter.describe(targetUri).then(
        () => true,
        () => false,
      );
      if (exists) conflicts += 1;
      const error = exists ? `${targetUri} exists` : null;
      rows.push(row(uri, targetUri, exists ? 'CONFLICT' : 'PLANNED', error));
      await sink.record({ kind: 'COPY', contextUri: uri, error });
    }
    this.rows.set(request.jobId, rows);
    return {
      ended: 'COMPLETE',
      summary: { containers: uris.length - conflicts, binaries: 0, bytes: 0, conflicts },
    };
  }

  async apply(
    request: CopyRequest,
    source: JobTarget,
    target: JobTarget,
    sink: CopySink,
  ): Promise<CopyOutcome> {
    this.calls.push({ phase: 'apply', request, sourceRoot: source.rootUri, targetRoot: target.rootUri });
    return this.write(request.jobId, sink, 'PLANNED', (r) =>
      this.failing.has(r.sourceUri) ? 'FAILED' : 'COPIED',
    );
  }

  async undo(request: CopyRequest, target: JobTarget, sink: CopySink): Promise<CopyOutcome> {
    this.calls.push({ phase: 'undo', request, sourceRoot: null, targetRoot: target.rootUri });
    return this.write(request.jobId, sink, 'COPIED', () => 'REMOVED');
  }

  async report(jobId: number, offset: number, limit: number): Promise<readonly CopyResult[]> {
    return Promise.resolve((this.rows.get(jobId) ?? []).slice(offset, offset + limit));
  }

  async *reportRows(jobId: number): AsyncIterable<CopyResult> {
    for (const r of this.rows.get(jobId) ?? []) yield await Promise.resolve(r);
  }

  private async write(
    jobId: number,
    sink: CopySink,
    from: CopyResult['outcome'],
    to: (r: CopyResult) => CopyResult['outcome'],
  ): Promise<CopyOutcome> {
    const rows = this.rows.get(jobId) ?? [];
    let copied = 0;
    let failed = 0;
    for (const [index, r] of rows.entries()) {
      if (r.outcome !== from) continue;
      if (from === 'PLANNED' && copied === this.breakAfter)
        return { ended: 'FAILED', message: `The target stopped answering after ${copied} resources` };
      await this.gate?.();
      if (sink.cancelled()) return { ended: 'CANCELLED', message: `stopped after ${copied} resources` };
      const outcome = to(r);
      if (outcome !== 'FAILED')
        await sink.act(r.targetUri, () => {
          this.acted.push(r.targetUri);
          return Promise.resolve();
        });
      const next = { ...r, outcome, error: outcome === 'FAILED' ? 'refused by the stand-in' : null };
      rows[index] = next;
      if (outcome === 'FAILED') failed += 1;
      else copied += 1;
      await sink.progressed(next);
    }
    const verb = from === 'PLANNED' ? 'Copied' : 'Removed';
    return { ended: 'DONE', copied, failed, message: `${verb} ${copied} resources; ${failed} failed` };
  }
}

function lastSegment(uri: string): string {
  return uri.replace(/\/$/, '').split('/').at(-1) ?? '';
}

function row(
  sourceUri: string,
  targetUri: string,
  outcome: CopyResult['outcome'],
  error: string | null,
): CopyResult {
  return {
    sourceUri,
    targetUri,
    kind: 'CONTAINER',
    bytes: null,
    digestAlgorithm: null,
    digestCheck: null,
    outcome,
    error,
  };
}
