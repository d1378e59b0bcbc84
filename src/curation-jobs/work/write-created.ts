import type { Quad } from '@rdfjs/types';
import { isServerManaged } from '../../linked-data/rdf/server-managed.js';
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
 * UNDO deletes only a resource with nothing contained in it whose metadata (as `naming` tells it) is still
 * exactly as the apply left it, so a delete never takes anyone else's work with it: the snapshot taken right
 * after its creation (`createdState`, holding what the repository wrote itself, as §9 compares ETags), or,
 * where none was recorded (a stop between creating and recording), the row's values (`remove`).
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
    return description.children.length === 0 && isAsCreated(description, change, naming)
      ? 'write'
      : 'conflict';
  }
  if (description === undefined) return 'write';
  return holdsAll(description, change.add) ? 'done' : 'conflict';
}

/**
 * Creates (APPLY) or deletes (UNDO) the change's resource; a created one is told to `sink.created` at once
 * (inside the transaction where there is one: a rollback takes the resource, the runner forgets it), with
 * its metadata as created — what its undo compares with. Answers the created resource's IRI (APPLY).
 */
export async function writeCreation(
  adapter: RepositoryAdapter,
  change: StoredChange,
  naming: FieldNaming,
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
  await sink.created(change.contextUri, uri, await createdState(adapter, uri, naming, tx));
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
  return quads.every((q) => held.has(tripleKey(q)));
}

/**
 * The metadata of a resource just created, including what the repository wrote itself (Community Solid
 * Server adds `dcterms:modified`). Undefined when it cannot be read: its undo then checks the row's values.
 */
async function createdState(
  adapter: RepositoryAdapter,
  uri: string,
  naming: FieldNaming,
  tx: TransactionRef | undefined,
): Promise<Quad[] | undefined> {
  try {
    return metadataOf(await adapter.describe(uri, tx), naming);
  } catch {
    return undefined;
  }
}

/**
 * Whether the created resource's metadata is exactly as the apply left it: no value gone, none added since.
 * Without a snapshot, the row's values are all the apply is known to have written, and server-managed
 * statements (which it could not write) are left out of the comparison.
 */
function isAsCreated(description: ResourceDescription, change: StoredChange, naming: FieldNaming): boolean {
  const held = metadataOf(description, naming);
  if (change.createdState !== undefined) return sameTriples(held, change.createdState);
  const written = (q: Quad) => !isServerManaged(q.predicate.value, q.object);
  return sameTriples(held.filter(written), change.remove.filter(written));
}

function metadataOf(description: ResourceDescription, naming: FieldNaming): Quad[] {
  return description.quads.filter((q) => naming.isMetadata(q, description.uri));
}

/** Whether two sets of triples of one resource are the same (compared as `tripleKey`: subjects aside). */
function sameTriples(held: readonly Quad[], wanted: readonly Quad[]): boolean {
  const heldKeys = new Set(held.map(tripleKey));
  const wantedKeys = new Set(wanted.map(tripleKey));
  return heldKeys.size === wantedKeys.size && [...wantedKeys].every((key) => heldKeys.has(key));
}

function ownTriples(description: ResourceDescription): Quad[] {
  return description.quads.filter((q) => q.subject.value === description.uri);
}

/** A triple of one resource by predicate and object: its subject (the resource, or a `+` row's key) aside. */
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
