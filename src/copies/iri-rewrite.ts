import type { Quad } from '@rdfjs/types';
import { isServerManaged } from '../linked-data/rdf/server-managed.js';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { NS } from '../linked-data/rdf/vocab.js';
import type { ChildStatement, ResourceDescription } from '../repository-adapters/repository-adapter.js';

export const PROV_WAS_DERIVED_FROM = 'http://www.w3.org/ns/prov#wasDerivedFrom';

/**
 * Statements Community Solid Server writes itself (its modification time, a binary's Content-Type as
 * ma:format, POSIX stats): never copied (the media type travels as the copy's Content-Type), never
 * compared by undo.
 */
const VOLATILE_PREDICATES = new Set([`${NS.dcterms}modified`, 'http://www.w3.org/ns/ma-ont#format']);
const VOLATILE_NAMESPACES = ['http://www.w3.org/ns/posix/stat#'];

/**
 * Rewrites IRIs inside the copied set to their targets (DECISIONS.md §16): a source IRI with or without
 * its trailing slash, and its `#fragment` IRIs, become the target's; every other IRI stays as it is.
 */
export class IriRewriter {
  private readonly targets = new Map<string, string>();

  constructor(sourceToTarget: ReadonlyMap<string, string>) {
    for (const [source, target] of sourceToTarget) this.targets.set(withoutSlash(source), target);
  }

  rewrite(iri: string): string {
    const hash = iri.indexOf('#');
    const base = hash === -1 ? iri : iri.slice(0, hash);
    const target = this.targets.get(withoutSlash(base));
    if (target === undefined) return iri;
    return hash === -1 ? target : `${target}${iri.slice(hash)}`;
  }
}

/** What a copy is created with: statements about itself, and the rest (fragment and blank-node subjects). */
export interface CopyStatements {
  /** About the copy itself (creation sends these), prov:wasDerivedFrom included. */
  readonly statements: readonly ChildStatement[];
  /** Statements whose subject is one of the copy's fragments or a blank node, written after creation. */
  readonly others: readonly Quad[];
  /** Every statement the copy holds, subjects the copy's (what a resumed apply checks for). */
  readonly all: readonly Quad[];
}

/**
 * A source resource's user statements as its copy holds them: server-managed statements (containment,
 * digests, sizes, timestamps, interaction models) dropped, IRIs inside the copied set rewritten, and
 * `<copy> prov:wasDerivedFrom <source>` added.
 */
export function copyStatements(
  description: ResourceDescription,
  targetUri: string,
  rewriter: IriRewriter,
): CopyStatements {
  const self = namedNode(targetUri);
  const all: Quad[] = [];
  for (const q of description.quads) {
    if (!isOwn(q.subject, description.uri) || !isUserStatement(q)) continue;
    const subject =
      q.subject.termType === 'NamedNode' ? namedNode(rewriter.rewrite(q.subject.value)) : q.subject;
    const object = q.object.termType === 'NamedNode' ? namedNode(rewriter.rewrite(q.object.value)) : q.object;
    all.push(quad(subject, q.predicate, object));
  }
  all.push(quad(self, namedNode(PROV_WAS_DERIVED_FROM), namedNode(description.uri)));
  // A blank node's statements must reach the repository in one request (a blank node is local to the
  // document it is in): every statement naming one goes with the fragments', after creation.
  const atCreation = (q: Quad) =>
    q.subject.termType === 'NamedNode' && q.subject.value === targetUri && q.object.termType !== 'BlankNode';
  const statements = all.filter(atCreation).map((q) => ({ predicate: q.predicate.value, object: q.object }));
  const others = all.filter((q) => !atCreation(q));
  return { statements, others, all };
}

/** A copy's user statements as stored for undo and compared by it: one sorted line each. */
export function userSnapshot(description: ResourceDescription): string {
  return description.quads
    .filter((q) => isOwn(q.subject, description.uri) && isUserStatement(q))
    .map(lineOf)
    .sort()
    .join('\n');
}

/** Whether `description` holds `<uri> prov:wasDerivedFrom <source>` (a copy this job made). */
export function isDerivedFrom(description: ResourceDescription, sourceUri: string): boolean {
  return description.quads.some(
    (q) =>
      sameIri(q.subject.value, description.uri) &&
      q.predicate.value === PROV_WAS_DERIVED_FROM &&
      q.object.termType === 'NamedNode' &&
      sameIri(q.object.value, sourceUri),
  );
}

/** The statements of `wanted` the description lacks (a resumed copy's metadata still to write). */
export function missingStatements(description: ResourceDescription, wanted: readonly Quad[]): Quad[] {
  const held = new Set(description.quads.filter((q) => isOwn(q.subject, description.uri)).map(lineOf));
  const missing = wanted.filter((q) => q.subject.termType === 'NamedNode' && !held.has(lineOf(q)));
  // A missing link to a blank node goes with the blank node's own statements (one request, one document).
  if (!missing.some((q) => q.object.termType === 'BlankNode')) return missing;
  return [...missing, ...wanted.filter((q) => q.subject.termType === 'BlankNode')];
}

function isUserStatement(q: Quad): boolean {
  const predicate = q.predicate.value;
  if (isServerManaged(predicate, q.object)) return false;
  return !VOLATILE_PREDICATES.has(predicate) && !VOLATILE_NAMESPACES.some((ns) => predicate.startsWith(ns));
}

/** About the resource itself, one of its fragments, or a blank node its statements reach. */
function isOwn(subject: Quad['subject'], uri: string): boolean {
  if (subject.termType === 'BlankNode') return true;
  if (subject.termType !== 'NamedNode') return false;
  const base = subject.value.split('#')[0] ?? subject.value;
  return sameIri(base, uri);
}

/** A statement as a line; blank nodes unlabelled (their labels change from one read to the next). */
function lineOf(q: Quad): string {
  return [q.subject, q.predicate, q.object].map(termText).join(' ');
}

function termText(term: Quad['subject'] | Quad['predicate'] | Quad['object']): string {
  if (term.termType === 'BlankNode') return '_:';
  if (term.termType === 'Literal')
    return `${JSON.stringify(term.value)}@${term.language}^^${term.datatype.value}`;
  return `<${term.value}>`;
}

function sameIri(a: string, b: string): boolean {
  return withoutSlash(a) === withoutSlash(b);
}

function withoutSlash(uri: string): string {
  return uri.endsWith('/') ? uri.slice(0, -1) : uri;
}
