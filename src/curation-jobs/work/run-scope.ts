import { applyOperators, type ApplyContext } from '../../operators/engine/apply-operators.js';
import type { Operator } from '../../operators/operator.js';
import type { FixityResult, ResourceDescription } from '../../repository-adapters/repository-adapter.js';
import { documentOf } from '../../search/search-document.js';
import { CapabilityUnsupportedError } from '../../shared/errors.js';
import { FieldNaming } from './field-naming.js';
import {
  actFor,
  type JobTarget,
  type RunItem,
  type RunOutcome,
  type RunRequest,
  type RunSink,
} from './job-work.js';
import { changesBetween, readMetadata } from './metadata-document.js';
import { scopeEntries, unlistable } from './scope-entries.js';
import type { ScopeEntry } from './scope-walk.js';
import { isListedScope } from '../curation-job.js';
import { runSheet } from '../../spreadsheets/job/run-sheet.js';

/**
 * The RUN phase of a job (DECISIONS.md §9): walks the scope (or, QUERY and MEMBERS, the list search gives:
 * scope-entries.ts; SPREADSHEET reads its sheet's rows instead: spreadsheets/job/run-sheet.ts) and records one item per resource (MAPPING: the triples the operators would remove and
 * add; FIXITY: one per binary; INDEX: the resource's search document, which the runner writes into the
 * index). Nothing is written to the repository.
 * Resumable: resources the sink already holds are walked through (their children still count) but not
 * processed or counted again. Only a missing context, a scope larger than `maxResources`, a kind the
 * repository cannot serve, or a failing sink end the run early; a resource that fails is an item with an error.
 */
export async function runScope(request: RunRequest, target: JobTarget, sink: RunSink): Promise<RunOutcome> {
  // A sheet's rows are its resources: no walk (DECISIONS.md §13).
  if (request.kind === 'SPREADSHEET') return runSheet(request, target, sink);
  const noSearch = unlistable(target, request.scope);
  if (noSearch !== undefined) return { ended: 'FAILED', message: noSearch };
  if (request.kind === 'MAPPING')
    return walkAndRecord(request, target, sink, mappingOf(request.operators, target));
  if (request.kind === 'INDEX') return walkAndRecord(request, target, sink, INDEXING);
  if (request.kind === 'EXPORT') {
    const { exports, jobId } = request;
    if (exports === undefined || jobId === undefined)
      return {
        ended: 'FAILED',
        message: 'An EXPORT job needs the bag writer, which this process does not have',
      };
    return exports.run(jobId, request, target, sink);
  }
  const fixity = target.adapter.fixity;
  if (fixity === undefined) {
    const why = new CapabilityUnsupportedError('fixity checks', target.adapter.kind).message;
    return { ended: 'FAILED', message: `${why}: a FIXITY job cannot run on this repository view` };
  }
  return walkAndRecord(
    request,
    target,
    sink,
    fixityOf((uri) => actFor(sink, uri, () => fixity.check(uri)), sink),
  );
}

async function walkAndRecord<T>(
  request: RunRequest,
  target: JobTarget,
  sink: RunSink,
  processing: Processing<T>,
): Promise<RunOutcome> {
  const walk = scopeEntries(target, request, {
    concurrency: request.concurrency,
    // MAPPING: every resource in scope is one item; FIXITY counts binaries, once described (prefetch).
    ...(processing.counts === 'RESOURCES' && {
      found: (count: number) => {
        sink.found(count);
      },
    }),
    // A fixity check shares its resource's slot, so the repository sees at most `concurrency` requests.
    ...(processing.prefetch === undefined ? {} : { then: processing.prefetch }),
  });
  let seen = 0;
  let recording = false;
  try {
    for await (const entry of walk) {
      if (sink.cancelled()) return { ended: 'CANCELLED' };
      seen += 1;
      if (seen > request.maxResources) {
        // An INDEX job has written documents already: they stay, and nothing is swept.
        const kept =
          request.kind === 'INDEX'
            ? 'the documents indexed so far stay and none was removed'
            : 'nothing was written';
        return {
          ended: 'FAILED',
          message: `The scope holds more than ${request.maxResources} resources (the limit of ${request.kind === 'INDEX' ? 'an INDEX' : 'a curation'} job); ${kept}`,
        };
      }
      if (sink.isDone(entry.uri)) continue;
      const item = processing.itemOf(entry);
      if (item === undefined) continue;
      recording = true;
      await sink.record(item);
      recording = false;
    }
  } catch (error) {
    // The sink's own failures (the database) are the runner's to handle; the walk's end the run.
    if (recording) throw error;
    const why = error instanceof Error ? error.message : String(error);
    return { ended: 'FAILED', message: `The scope of ${request.contextUri} could not be walked: ${why}` };
  }
  // A list that held nothing is a job with nothing to do, which completes; its message says why.
  if (seen === 0 && isListedScope(request.scope))
    return {
      ended: 'COMPLETE',
      note:
        request.scope === 'QUERY'
          ? `the query matched nothing within ${request.contextUri}`
          : `${request.contextUri} has no members (pcdm:hasMember, pcdm:memberOf)`,
    };
  return { ended: 'COMPLETE' };
}

/** What a run does with each resource: optional work in the walk's slot, then the item (none: not in scope). */
interface Processing<T> {
  /** What `sink.found` counts: every resource the walk finds, or those `prefetch` finds to be binaries. */
  readonly counts: 'RESOURCES' | 'BINARIES';
  readonly prefetch?: (description: ResourceDescription) => Promise<T>;
  itemOf(entry: ScopeEntry<T>): RunItem | undefined;
}

function mappingOf(operators: readonly Operator[], target: JobTarget): Processing<undefined> {
  const naming = new FieldNaming(target.schemas);
  // As POST /operators/apply with the view named: APPLICATION_TYPE_OP writes the view's type in lower case.
  // But a value an operator cannot transform stays as it is (with a warning): dropping it, as SAGE does
  // with a posted document, would delete the repository's data.
  const context: ApplyContext = {
    timeZone: 'UTC',
    applicationType: target.adapter.kind.toLowerCase(),
    untransformable: 'KEEP',
  };
  return {
    counts: 'RESOURCES',
    itemOf(entry) {
      const failed = (etag: string | null, error: string): RunItem => ({
        kind: 'MAPPING',
        contextUri: entry.uri,
        etag,
        removed: [],
        added: [],
        error,
        warnings: [],
      });
      if ('error' in entry) return failed(null, `${entry.uri} could not be read: ${entry.error}`);
      const etag = entry.description.etag ?? null;
      const before = readMetadata(entry.uri, entry.description.quads, naming);
      const result = applyOperators(before.document, operators, context);
      const broken = result.trace.find((step) => step.error !== undefined);
      if (broken !== undefined)
        return failed(etag, `Operator ${broken.operator} failed on ${broken.field}: ${broken.error}`);
      try {
        const { removed, added } = changesBetween(before, result.document, naming);
        const { warnings } = result;
        return { kind: 'MAPPING', contextUri: entry.uri, etag, removed, added, error: null, warnings };
      } catch (error) {
        return failed(etag, error instanceof Error ? error.message : String(error));
      }
    },
  };
}

/**
 * INDEX (DECISIONS.md §12): each resource's document, built by the one function that decides what is
 * searched, from the description the walk read anyway (one describe per resource, nothing more).
 */
const INDEXING: Processing<undefined> = {
  counts: 'RESOURCES',
  itemOf(entry) {
    if ('error' in entry)
      return {
        kind: 'INDEX',
        contextUri: entry.uri,
        document: null,
        error: `${entry.uri} could not be read: ${entry.error}`,
      };
    const { description } = entry;
    const document = documentOf({
      iri: entry.uri,
      parent: description.parent ?? null,
      binary: description.isBinary,
      quads: description.quads,
    });
    return { kind: 'INDEX', contextUri: entry.uri, document, error: null };
  },
};

type FixityOutcome = { readonly result: FixityResult } | { readonly error: string } | undefined;

function fixityOf(check: (uri: string) => Promise<FixityResult>, sink: RunSink): Processing<FixityOutcome> {
  return {
    counts: 'BINARIES',
    async prefetch(description) {
      // Containers are walked, not checked; a binary done by an earlier attempt counts but is not checked again.
      if (!description.isBinary) return undefined;
      sink.found(1);
      if (sink.isDone(description.uri)) return undefined;
      try {
        return { result: await check(description.uri) };
      } catch (error) {
        return { error: error instanceof Error ? error.message : String(error) };
      }
    },
    itemOf(entry) {
      const failed = (error: string): RunItem => ({
        kind: 'FIXITY',
        contextUri: entry.uri,
        status: 'ERROR',
        messageDigest: null,
        size: null,
        error,
      });
      // Whether an unreadable resource was a binary is unknown: it is reported, so nothing is silently skipped.
      if ('error' in entry) return failed(`${entry.uri} could not be read: ${entry.error}`);
      const outcome = entry.extra;
      if (outcome === undefined) return undefined;
      if ('error' in outcome) return failed(outcome.error);
      const { status, messageDigest, size } = outcome.result;
      return { kind: 'FIXITY', contextUri: entry.uri, status, messageDigest, size, error: null };
    },
  };
}
