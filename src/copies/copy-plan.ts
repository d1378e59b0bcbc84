import { EBUCORE, PREMIS } from '../linked-data/rdf/vocab.js';
import type { ResourceDescription } from '../repository-adapters/repository-adapter.js';
import type { JobTarget, RunSink } from '../curation-jobs/work/job-work.js';
import { scopeEntries, unlistable } from '../curation-jobs/work/scope-entries.js';
import { heldDigest } from '../exports/repository-digest.js';
import type { CopyItemStore, NewCopyItem } from './copy-items.store.js';
import { CopyTargets } from './copy-targets.js';
import type { CopyPlanOutcome, CopyRequest, CopySummary } from './job-copies.js';
import { targetExists } from './target-writes.js';

/** IRIs a message names at most (the report lists them all). */
export const LISTED_IN_MESSAGE = 5;

/** What the plan found of one resource, in its walk slot. */
type Planned = { readonly skip: true } | { readonly item: NewCopyItem };

/**
 * The RUN phase of a COPY job (DECISIONS.md §16): walks the source scope (scope-entries.ts, the walk every
 * kind uses), maps each resource to its target IRI, asks the target whether something is there already
 * (a conflict) and records what the apply needs (size, media type, filename, the digest the source holds).
 * One plan row per resource, then `sink.record`; a resumed plan skips what the sink lists and numbers on
 * after the rows it finds. Nothing is written to either repository.
 */
export async function planCopy(
  store: CopyItemStore,
  request: CopyRequest,
  source: JobTarget,
  target: JobTarget,
  sink: RunSink,
): Promise<CopyPlanOutcome> {
  const noSearch = unlistable(source, request.scope);
  if (noSearch !== undefined) return { ended: 'FAILED', message: noSearch };
  const targets = new CopyTargets(
    target.adapter.kind,
    request.targetContextUri,
    request.contextUri,
    request.scope,
  );
  // Target IRIs taken so far (two hits of a listed scope with one name: the second is a conflict).
  const taken = new Map<string, string>();
  for (const [sourceUri, targetUri] of await store.targets(request.jobId)) taken.set(targetUri, sourceUri);
  let position = await store.nextPosition(request.jobId);

  const plan = async (description: ResourceDescription): Promise<Planned> => {
    if (sink.isDone(description.uri)) return { skip: true };
    return { item: await planOne(request, targets, target, description) };
  };
  const keep = async (item: NewCopyItem): Promise<void> => {
    const other = taken.get(item.targetUri);
    const duplicate = other !== undefined && other !== item.sourceUri;
    const kept: NewCopyItem = duplicate
      ? { ...item, outcome: 'CONFLICT', error: `${item.targetUri} is where ${other} is copied too` }
      : item;
    if (!duplicate) taken.set(item.targetUri, item.sourceUri);
    await store.insert(kept, position);
    position += 1;
    await sink.record({ kind: 'COPY', contextUri: kept.sourceUri, error: kept.error });
  };

  let seen = 0;
  const tooMany = (): CopyPlanOutcome => ({
    ended: 'FAILED',
    message: `The scope holds more than ${request.maxResources} resources (the limit of a curation job); nothing will be copied`,
  });
  try {
    // CHILDREN: the context is copied too, as the parent of the copies (the walk yields only its children).
    if (request.scope === 'CHILDREN' && !sink.isDone(request.contextUri)) {
      sink.found(1);
      seen += 1;
      const planned = await plan(await source.adapter.describe(request.contextUri));
      if ('item' in planned) await keep(planned.item);
    } else if (request.scope === 'CHILDREN') seen += 1;
    const walk = scopeEntries(source, request, {
      concurrency: request.concurrency,
      found: (count) => {
        sink.found(count);
      },
      then: plan,
    });
    for await (const entry of walk) {
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      seen += 1;
      if (seen > request.maxResources) return tooMany();
      if (sink.isDone(entry.uri)) continue;
      if ('error' in entry) {
        await keep(unreadable(request, targets, entry.uri, entry.error));
        continue;
      }
      if ('item' in entry.extra) await keep(entry.extra.item);
    }
  } catch (error) {
    return {
      ended: 'FAILED',
      message: `The copy of ${request.contextUri} could not be planned: ${messageOf(error)}`,
    };
  }
  const totals = await store.totals(request.jobId);
  const summary: CopySummary = {
    containers: totals.containers,
    binaries: totals.binaries,
    bytes: totals.bytes,
    conflicts: totals.conflicts.length,
  };
  return { ended: 'COMPLETE', note: dryRunMessage(summary, totals.conflicts), summary };
}

/** `Would copy 12 resources (9 containers, 3 binaries, 3145728 bytes); 1 conflict: <iri> exists`. */
export function dryRunMessage(
  summary: CopySummary,
  conflicts: readonly { readonly error: string | null }[],
): string {
  const count = summary.containers + summary.binaries;
  const what = `Would copy ${count} ${plural(count, 'resource')} (${summary.containers} ${plural(summary.containers, 'container')}, ${summary.binaries} ${plural(summary.binaries, 'binary', 'binaries')}, ${summary.bytes} bytes)`;
  if (conflicts.length === 0) return what;
  const named = conflicts.slice(0, LISTED_IN_MESSAGE).map((row) => row.error ?? '');
  const more = conflicts.length > LISTED_IN_MESSAGE ? `; ${conflicts.length - LISTED_IN_MESSAGE} more` : '';
  return `${what}; ${conflicts.length} ${plural(conflicts.length, 'conflict')}: ${named.join('; ')}${more}`;
}

async function planOne(
  request: CopyRequest,
  targets: CopyTargets,
  target: JobTarget,
  description: ResourceDescription,
): Promise<NewCopyItem> {
  const kind = description.isBinary ? 'BINARY' : 'CONTAINER';
  const binary = description.isBinary ? binaryFacts(description) : undefined;
  const base = {
    jobId: request.jobId,
    sourceUri: description.uri,
    kind,
    bytes: binary?.bytes ?? null,
    mediaType: binary?.mediaType ?? null,
    filename: binary?.filename ?? null,
    sourceDigest: binary?.digest ?? null,
  } as const;
  let placed;
  try {
    placed = targets.targetOf(description.uri, kind);
  } catch (error) {
    return {
      ...base,
      targetUri: '',
      parentTargetUri: '',
      depth: 0,
      outcome: 'UNREADABLE',
      error: messageOf(error),
    };
  }
  const exists = await targetExists(target.adapter, placed.targetUri);
  return {
    ...base,
    targetUri: placed.targetUri,
    parentTargetUri: placed.parentTargetUri,
    depth: placed.depth,
    outcome: exists ? 'CONFLICT' : 'PLANNED',
    error: exists ? `${placed.targetUri} exists` : null,
  };
}

/** A resource the walk could not read: planned as not copyable, its place named where it can be. */
function unreadable(request: CopyRequest, targets: CopyTargets, uri: string, error: string): NewCopyItem {
  let placed: { targetUri: string; parentTargetUri: string; depth: number } = {
    targetUri: '',
    parentTargetUri: '',
    depth: 0,
  };
  try {
    placed = targets.targetOf(uri, 'CONTAINER');
  } catch {
    // No place either: the row says why it cannot be read, which is the first thing to fix.
  }
  return {
    jobId: request.jobId,
    sourceUri: uri,
    ...placed,
    kind: 'CONTAINER',
    bytes: null,
    mediaType: null,
    filename: null,
    sourceDigest: null,
    outcome: 'UNREADABLE',
    error: `${uri} could not be read: ${error}`,
  };
}

/** A binary's size, media type, filename and held digest as its source description states them. */
function binaryFacts(description: ResourceDescription) {
  const value = (predicate: string) =>
    description.quads.find((q) => q.predicate.value === predicate && q.subject.value === description.uri)
      ?.object.value;
  const size = value(PREMIS.hasSize);
  const held = heldDigest(description.quads);
  return {
    bytes: size === undefined || !/^\d+$/u.test(size) ? null : Number(size),
    mediaType: value(EBUCORE.hasMimeType) ?? null,
    filename: value(EBUCORE.filename) ?? null,
    digest: held === undefined ? null : `${held.algorithm}:${held.hex}`,
  };
}

function plural(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
