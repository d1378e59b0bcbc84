import type { Quad } from '@rdfjs/types';
import { isServerManaged } from '../../linked-data/rdf/server-managed.js';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type {
  RepositoryAdapter,
  ResourceDescription,
  TransactionRef,
} from '../../repository-adapters/repository-adapter.js';
import type { FieldNaming } from './field-naming.js';
import type { StoredChange, WriteSink } from './job-work.js';
import { termKey } from './metadata-document.js';
import { isMissingResource } from './missing-resource.js';

/*
 * The changes of a SPREADSHEET job that make or unmake a resource rather than update one (DECISIONS.md §13):
 * APPLY of a `+` row creates a child of the job's context holding the row's values; its UNDO deletes that
 * child again, but only while it is as the apply left it. write-changes.ts decides when (after every
 * update, inside the one transaction where the view transacts); this file decides what and whether.
 */

/** Whether a change creates (APPLY of a `+` row) or deletes (its UNDO) a resource. */
export function isCreation(change: StoredChange): boolean {
  return change.create !== undefined || change.deleteCreated === true;
}

/** The resource a creation is about, as a message names it: the created IRI when known, else the row. */
export function creationSubject(change: StoredChange): string {
  if (change.deleteCreated === true) return change.contextUri;
  return change.create?.createdUri ?? `the new resource of row ${change.contextUri.slice(1)}`;
}

/**
 * What a creation needs, read before anything is written: `write` (create it; delete it), `done` (nothing
 * left to do: an earlier attempt created it and it holds the row's values; the created resource is gone
 * already) or `conflict` (someone changed it since: it is left as it is).
 * APPLY with no created resource on record always writes. An earlier attempt's resource that is gone was
 * rolled back with its transaction (or never committed), so it is created again.
 * UNDO deletes only a resource holding exactly the metadata the apply gave it (`remove`, as `naming` tells
 * metadata) and nothing contained in it, so a delete never takes anyone else's work with it.
 */
export async function checkCreation(
  adapter: RepositoryAdapter,
  change: StoredChange,
  naming: FieldNaming,
  tx?: TransactionRef,
): Promise<'write' | 'done' | 'conflict'> {
  const uri = change.deleteCreated === true ? change.contextUri : change.create?.createdUri;
  if (uri === undefined || uri === null) return 'write';
  const description = await describeIfThere(adapter, uri, tx);
  if (change.deleteCreated === true) {
    if (description === undefined) return 'done';
    return holdsExactly(description, change.remove, naming) && description.children.length === 0
      ? 'write'
      : 'conflict';
  }
  if (description === undefined) return 'write';
  return holdsAll(description, change.add) ? 'done' : 'conflict';
}

/**
 * Creates (APPLY) or deletes (UNDO) the change's resource; a created one is told to `sink.created` at once
 * (inside the transaction where there is one: a rollback takes the resource, the runner forgets it).
 * Answers the created resource's IRI (APPLY).
 */
export async function writeCreation(
  adapter: RepositoryAdapter,
  change: StoredChange,
  sink: WriteSink,
  tx?: TransactionRef,
): Promise<string | undefined> {
  if (change.deleteCreated === true) {
    await named(`${change.contextUri} could not be deleted`, () => adapter.delete(change.contextUri, tx));
    return undefined;
  }
  const parentUri = change.create?.parentUri;
  if (parentUri === undefined) throw new Error(`${change.contextUri} is neither a creation nor a deletion`);
  const statements = change.add.map((q) => ({ predicate: q.predicate.value, object: q.object }));
  const uri = await named(`${creationSubject(change)} could not be created in ${parentUri}`, () =>
    adapter.createChild(parentUri, statements, tx),
  );
  await sink.created(change.contextUri, uri);
  return uri;
}

/**
 * The changes with every creation after every update, the updates streamed as they come. Creating or
 * deleting a child changes its container's ETag on most repositories: written first, it would turn the
 * container's own row (checked with If-Match) into a false conflict.
 */
export async function* updatesFirst(
  changes: Iterable<StoredChange> | AsyncIterable<StoredChange>,
): AsyncGenerator<StoredChange> {
  const creations: StoredChange[] = [];
  for await (const change of changes) {
    if (isCreation(change)) creations.push(change);
    else yield change;
  }
  yield* creations;
}

async function describeIfThere(
  adapter: RepositoryAdapter,
  uri: string,
  tx: TransactionRef | undefined,
): Promise<ResourceDescription | undefined> {
  try {
    return await adapter.describe(uri, tx);
  } catch (error) {
    if (isMissingResource(error)) return undefined;
    throw new Error(`${uri} could not be read: ${messageOf(error)}`, { cause: error });
  }
}

/** Whether the resource holds every one of `quads` (their subject taken as the resource). */
function holdsAll(description: ResourceDescription, quads: readonly Quad[]): boolean {
  const held = new Set(ownTriples(description).map(tripleKey));
  return quads.every((q) => held.has(tripleKey(resubject(q, description.uri))));
}

/**
 * Predicates some repositories write themselves on every change, in namespaces a view may hold as metadata:
 * Community Solid Server keeps `dcterms:modified` on each resource. Their values say nothing about whether
 * a curator changed the resource, so the undo of a creation leaves them out of its comparison.
 */
const REPOSITORY_WRITTEN = new Set([`${NS.dcterms}modified`]);

/** Whether the resource's metadata is exactly `quads`: no value of them gone, none added since. */
function holdsExactly(
  description: ResourceDescription,
  quads: readonly Quad[],
  naming: FieldNaming,
): boolean {
  const compared = (q: Quad) =>
    !REPOSITORY_WRITTEN.has(q.predicate.value) && !isServerManaged(q.predicate.value, q.object);
  const held = new Set(
    ownTriples(description)
      .filter((q) => naming.isMetadata(q, description.uri) && compared(q))
      .map(tripleKey),
  );
  const wanted = new Set(quads.filter(compared).map((q) => tripleKey(resubject(q, description.uri))));
  return held.size === wanted.size && [...wanted].every((key) => held.has(key));
}

function ownTriples(description: ResourceDescription): Quad[] {
  return description.quads.filter((q) => q.subject.value === description.uri);
}

function resubject(q: Quad, subject: string): Quad {
  return q.subject.value === subject ? q : quad(namedNode(subject), q.predicate, q.object);
}

function tripleKey(q: Quad): string {
  return `${q.predicate.value}\n${termKey(q.object)}`;
}

async function named<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new Error(`${what}: ${messageOf(error)}`, { cause: error });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
