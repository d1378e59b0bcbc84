import { createHash } from 'node:crypto';
import type { Quad, Term } from '@rdfjs/types';
import type {
  RepositoryAdapter,
  ResourceDescription,
} from '../../../src/repository-adapters/repository-adapter.js';
import { isServerManaged } from '../../../src/linked-data/rdf/server-managed.js';
import { DCTERMS } from './tree-fixture.js';

/** What every copy says of its source (DECISIONS.md §16). */
export const PROV_WAS_DERIVED_FROM = 'http://www.w3.org/ns/prov#wasDerivedFrom';

/**
 * What an LDP server (Community Solid Server) states about a resource by itself, besides the Fedora rule
 * (`isServerManaged`): modification times, POSIX stat sizes and a binary's media type as `ma:format`.
 */
const LDP_MANAGED_NAMESPACES = ['http://www.w3.org/ns/posix/stat#'];
const LDP_MANAGED_PREDICATES = new Set([`${DCTERMS}modified`, 'http://www.w3.org/ns/ma-ont#format']);

export interface TreeSide {
  readonly adapter: RepositoryAdapter;
  /** Source: the copied context. Target: the container the copy was made in (the job's targetContextUri). */
  readonly uri: string;
}

export interface TreeComparison {
  /** One line per difference, each naming the source resource it concerns; empty when the trees are equal. */
  readonly differences: string[];
  /** What was compared: resources found on the source, and the copies read on the target. */
  readonly containers: number;
  readonly binaries: number;
  readonly triples: number;
  readonly bytes: number;
}

interface SourceNode {
  readonly uri: string;
  readonly description: ResourceDescription;
  /** Decoded path segments below the copied context ([] for the context itself). */
  readonly segments: readonly string[];
}

/** The last path segment of an IRI, decoded (a container's trailing `/` ignored). */
export function lastSegment(uri: string): string {
  const path = new URL(uri).pathname.replace(/\/+$/, '');
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * Where the copy of a resource `segments` below the copied context is expected: the design's deterministic
 * target IRI (DECISIONS.md §16, "Where things go in the target").
 */
export function expectedTargetUri(
  targetContextUri: string,
  sourceContextUri: string,
  segments: readonly string[],
  kind: RepositoryAdapter['kind'],
  isBinary: boolean,
): string {
  const names = [lastSegment(sourceContextUri), ...segments];
  const base = targetContextUri.replace(/\/+$/, '');
  const uri = `${base}/${names.map((name) => encodeURIComponent(name)).join('/')}`;
  return kind === 'LDP' && !isBinary ? `${uri}/` : uri;
}

/**
 * The acceptance walk of COPY jobs (issue 32, DECISIONS.md §16): a source subtree and its copy, read
 * through each view's adapter (so each side is read the way the service reads it), compared resource by
 * resource. The copy of each source resource is looked for at the deterministic target IRI the design
 * fixes (`<targetContext>/<the source context's last segment>/<its path below the context>`, segments
 * decoded and re-encoded, LDP containers ending in `/`), so a copy at another IRI counts as missing and the
 * stray as extra. Per resource: the same kind, exactly the mapped children (no duplicate, nothing
 * extra), the same user triples once IRIs inside the copied set are mapped to their copies (fragments
 * kept), `prov:wasDerivedFrom <source>` on the copy, and for binaries the same SHA-256 and size (both
 * streamed), filename and media type. Answers every difference found (empty: equal) and what was
 * compared, so a caller can tell an empty walk from an equal one.
 */
export async function compareTrees(source: TreeSide, target: TreeSide): Promise<TreeComparison> {
  const differences: string[] = [];
  const nodes = await walkSource(source, differences);
  const targetOf = new Map<string, string>();
  for (const node of nodes)
    targetOf.set(
      node.uri,
      expectedTargetUri(
        target.uri,
        source.uri,
        node.segments,
        target.adapter.kind,
        node.description.isBinary,
      ),
    );
  const mapIri = (iri: string): string => {
    const exact = targetOf.get(iri);
    if (exact !== undefined) return exact;
    const hash = iri.indexOf('#');
    if (hash < 0) return iri;
    const base = targetOf.get(iri.slice(0, hash));
    return base === undefined ? iri : `${base}${iri.slice(hash)}`;
  };
  const counts = { containers: 0, binaries: 0, triples: 0, bytes: 0 };

  // The container the copy was made in holds the copy once (a second copy of the context is a duplicate).
  const rootCopy = targetOf.get(source.uri)!;
  const holder = await describeOr(target.adapter, target.uri, differences, 'the target context');
  if (holder !== undefined) {
    const copies = holder.children.filter((child) => child === rootCopy).length;
    if (copies !== 1) differences.push(`${target.uri}: holds ${rootCopy} ${copies} times, not once`);
  }

  for (const node of nodes) {
    const copyUri = targetOf.get(node.uri)!;
    const copy = await describeOr(target.adapter, copyUri, differences, `the copy of ${node.uri}`);
    if (copy === undefined) continue;
    const where = `${node.uri} → ${copyUri}`;
    if (copy.isBinary !== node.description.isBinary) {
      differences.push(
        `${where}: a ${kindName(copy.isBinary)} on the target, a ${kindName(node.description.isBinary)} on the source`,
      );
      continue;
    }
    compareChildren(where, node.description.children.map(mapIri), copy.children, differences);
    counts.triples += compareTriples(where, node, copy, source.adapter, target.adapter, mapIri, differences);
    if (node.description.isBinary) {
      counts.binaries++;
      counts.bytes += await compareBinaries(
        where,
        source.adapter,
        node.uri,
        target.adapter,
        copyUri,
        differences,
      );
    } else counts.containers++;
  }
  return { differences, ...counts };
}

/** Every resource of the source subtree, parents before children. */
async function walkSource(source: TreeSide, differences: string[]): Promise<SourceNode[]> {
  const nodes: SourceNode[] = [];
  const queue: { uri: string; segments: string[] }[] = [{ uri: source.uri, segments: [] }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const description = await describeOr(source.adapter, next.uri, differences, 'a source resource');
    if (description === undefined) continue;
    nodes.push({ uri: next.uri, description, segments: next.segments });
    for (const child of description.children)
      queue.push({ uri: child, segments: [...next.segments, lastSegment(child)] });
  }
  return nodes;
}

async function describeOr(
  adapter: RepositoryAdapter,
  uri: string,
  differences: string[],
  what: string,
): Promise<ResourceDescription | undefined> {
  try {
    return await adapter.describe(uri);
  } catch (error) {
    differences.push(
      `${uri}: ${what} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

function compareChildren(
  where: string,
  expected: readonly string[],
  actual: readonly string[],
  differences: string[],
): void {
  const want = new Set(expected);
  for (const child of actual) {
    if (!want.has(child)) differences.push(`${where}: holds ${child}, which copies nothing of the source`);
  }
  for (const child of expected) {
    const found = actual.filter((uri) => uri === child).length;
    if (found !== 1) differences.push(`${where}: holds ${child} ${found} times, not once`);
  }
}

/** Compares user triples (mapped); answers how many the source has. */
function compareTriples(
  where: string,
  node: SourceNode,
  copy: ResourceDescription,
  sourceAdapter: RepositoryAdapter,
  targetAdapter: RepositoryAdapter,
  mapIri: (iri: string) => string,
  differences: string[],
): number {
  // Predicates are never rewritten: only subjects and objects name resources.
  const mapTerm = (term: Term): string =>
    term.termType === 'NamedNode' ? `<${mapIri(term.value)}>` : termKey(term);
  const expected = userQuads(node.description, sourceAdapter.kind).map(
    (q) => `${mapTerm(q.subject)} ${termKey(q.predicate)} ${mapTerm(q.object)}`,
  );
  const derivation = `<${copy.uri}> <${PROV_WAS_DERIVED_FROM}> <${node.uri}>`;
  const actual = userQuads(copy, targetAdapter.kind).map(
    (q) => `${termKey(q.subject)} ${termKey(q.predicate)} ${termKey(q.object)}`,
  );
  const derivations = actual.filter((line) => line === derivation).length;
  if (derivations !== 1) differences.push(`${where}: carries ${derivation} ${derivations} times, not once`);
  const left = countLines(expected);
  const right = countLines(actual.filter((line) => line !== derivation));
  for (const [line, count] of left) {
    const there = right.get(line) ?? 0;
    if (there !== count)
      differences.push(`${where}: ${line} is on the source ${count}×, on the copy ${there}×`);
  }
  for (const [line, count] of right) {
    if (!left.has(line)) differences.push(`${where}: ${line} is on the copy ${count}×, not on the source`);
  }
  return expected.length;
}

/** Streams both binaries through SHA-256; answers the source's size in bytes. */
async function compareBinaries(
  where: string,
  sourceAdapter: RepositoryAdapter,
  sourceUri: string,
  targetAdapter: RepositoryAdapter,
  targetUri: string,
  differences: string[],
): Promise<number> {
  const [left, right] = await Promise.all([
    digestOf(sourceAdapter, sourceUri),
    digestOf(targetAdapter, targetUri),
  ]);
  if (left.sha256 !== right.sha256)
    differences.push(`${where}: SHA-256 ${right.sha256} on the copy, ${left.sha256} on the source`);
  if (left.size !== right.size)
    differences.push(`${where}: ${right.size} bytes on the copy, ${left.size} on the source`);
  if (left.filename !== right.filename)
    differences.push(
      `${where}: filename ${String(right.filename)} on the copy, ${String(left.filename)} on the source`,
    );
  if (left.mediaType !== right.mediaType)
    differences.push(`${where}: media type ${right.mediaType} on the copy, ${left.mediaType} on the source`);
  return left.size;
}

async function digestOf(
  adapter: RepositoryAdapter,
  uri: string,
): Promise<{ sha256: string; size: number; filename: string | undefined; mediaType: string }> {
  const binary = await adapter.downloadBinary(uri);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of binary.content) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return {
    sha256: hash.digest('hex'),
    size,
    filename: binary.filename,
    mediaType: binary.contentType.split(';')[0]!.trim().toLowerCase(),
  };
}

/**
 * The statements a curator wrote about the resource: the repository's own (Fedora's rule, and an LDP
 * server's) left out, and so are statements about a child's fragments, which Community Solid Server adds to
 * a container's representation from the child's description (the LDP adapter leaves out only those about
 * the child itself).
 */
function userQuads(description: ResourceDescription, kind: RepositoryAdapter['kind']): Quad[] {
  const children = new Set(description.children);
  return description.quads.filter(
    (q) =>
      !children.has(q.subject.value.replace(/#.*$/, '')) &&
      !isServerManaged(q.predicate.value, q.object) &&
      !(
        kind === 'LDP' &&
        (LDP_MANAGED_PREDICATES.has(q.predicate.value) ||
          LDP_MANAGED_NAMESPACES.some((ns) => q.predicate.value.startsWith(ns)))
      ),
  );
}

function termKey(term: Term): string {
  switch (term.termType) {
    case 'NamedNode':
      return `<${term.value}>`;
    case 'Literal':
      return term.language !== ''
        ? `${JSON.stringify(term.value)}@${term.language.toLowerCase()}`
        : `${JSON.stringify(term.value)}^^<${term.datatype.value}>`;
    case 'BlankNode':
    case 'DefaultGraph':
    case 'Quad':
    case 'Variable':
      // Blank nodes are compared by kind only: their labels are the server's.
      return `_:${term.termType}`;
  }
}

function countLines(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

function kindName(isBinary: boolean): string {
  return isBinary ? 'binary' : 'container';
}

/** How many resources a subtree holds, itself included (what an interrupted copy has written so far). */
export async function countTree(adapter: RepositoryAdapter, uri: string): Promise<number> {
  let count = 0;
  const queue = [uri];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    count++;
    queue.push(...(await adapter.describe(next)).children);
  }
  return count;
}
