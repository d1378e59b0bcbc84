import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import sparqljs from 'sparqljs';
import { changeBetween, metadataChange, type MetadataChange } from '../audit/audit-triples.js';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import type {
  ChildStatement,
  FixityResult,
  NewBinary,
  RepositoryAdapter,
  TransactionRef,
  VersionFacet,
  VersionInfo,
} from '../repository-adapters/repository-adapter.js';
import type { AuditedWrite } from './context-audit.js';

// What the ledger's details are made of when the view layer records a write itself (an external
// repository): computed from what was sent, or from the resource read before and after.

/**
 * The bytes of an upload, hashed as they stream to the repository: the digest (SHA-512, as the
 * embedded repository names it) and size of exactly what was sent. The source's failure fails the
 * stream handed on, and the handed-on stream's end (the upstream request gave up) releases the source,
 * as when the repository client read the source itself.
 */
export function digesting(source: Readable): { content: Readable; sent(): { digest: string; size: number } } {
  const hash = createHash('sha512');
  let size = 0;
  const content = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  pipeline(source, content, () => undefined);
  return { content, sent: () => ({ digest: `urn:sha-512:${hash.digest('hex')}`, size }) };
}

/**
 * The change a write makes to a resource, told by reading it before the write (now) and after it (when
 * asked, i.e. only when the view layer records the write itself). `predicates` narrows the comparison to
 * what the write can have touched, so a repository's own stamps (a Solid server's dcterms:modified) are
 * not taken for the curator's change.
 */
export async function readAround(
  adapter: RepositoryAdapter,
  uri: string,
  tx: TransactionRef | undefined,
  predicates?: ReadonlySet<string>,
): Promise<(after?: string) => Promise<MetadataChange>> {
  const touched = (quads: readonly Quad[]) =>
    predicates === undefined ? quads : quads.filter((q) => predicates.has(q.predicate.value));
  const before = touched((await adapter.describe(uri, tx)).quads);
  return async (after = uri) => changeBetween(before, touched((await adapter.describe(after, tx)).quads));
}

/**
 * The predicates a SPARQL Update's templates name, or undefined when one is a variable (any predicate
 * may change). The update is the service's own generator output (full IRIs).
 */
export function templatePredicates(update: string): ReadonlySet<string> | undefined {
  const parsed = new sparqljs.Parser().parse(update);
  if (parsed.type !== 'update') return new Set();
  const predicates = new Set<string>();
  for (const operation of parsed.updates) {
    if (!('updateType' in operation)) continue;
    const templates = [
      ...('insert' in operation ? operation.insert : []),
      ...('delete' in operation ? operation.delete : []),
    ];
    for (const pattern of templates)
      for (const { predicate } of pattern.triples) {
        if (!('termType' in predicate) || predicate.termType !== 'NamedNode') return undefined;
        predicates.add(predicate.value);
      }
  }
  return predicates;
}

/** POST /children: the new child with the triples it was created with. */
export function childCreated(statements: readonly ChildStatement[]): AuditedWrite<string> {
  return {
    action: 'resource.create',
    contextUri: (child) => child,
    detail: (child) =>
      metadataChange(
        [],
        statements.map((s) => quad(namedNode(child), namedNode(s.predicate), s.object as Quad['object'])),
      ),
  };
}

/** POST /resource: the new binary, with the digest and size of the bytes sent. */
export function binaryUploaded(
  file: Omit<NewBinary, 'content'>,
  sent: () => { digest: string; size: number },
): AuditedWrite<string> {
  return {
    action: 'binary.upload',
    contextUri: (binary) => binary,
    detail: () => ({ ...sent(), mimeType: file.contentType, filename: file.filename }),
  };
}

/** A fixity check, recorded at once (it changes nothing a transaction holds), FAILURE unless SUCCESS. */
export const FIXITY_CHECKED: AuditedWrite<FixityResult> = {
  action: 'fixity.check',
  immediate: true,
  // The size in bytes as a number, as every other detail gives it (the report has it as text).
  detail: (report) => ({
    status: report.status,
    digest: report.messageDigest,
    size: /^\d+$/.test(report.size) ? Number(report.size) : report.size,
  }),
  outcome: (report) => (report.status === 'SUCCESS' ? 'SUCCESS' : 'FAILURE'),
};

export const VERSION_CREATED: AuditedWrite<VersionInfo> = {
  action: 'version.create',
  detail: (version) => ({ version: version.uri, label: version.name }),
};

/** POST /query: the change the update made, told by reading the resource before and after. */
export async function queryUpdate(
  adapter: RepositoryAdapter,
  uri: string,
  tx: TransactionRef | undefined,
  update: string,
): Promise<AuditedWrite<void>> {
  const change = await readAround(adapter, uri, tx, templatePredicates(update));
  return { action: 'metadata.update', detail: () => change() };
}

/** The resource a memento belongs to. */
export function resourceOf(versionUri: string): string {
  return versionUri.replace(/\/fcr:versions\/[^/]+$/, '');
}

/** PATCH /version: the restored resource, with what the restore changed in it. */
export async function versionRestore(
  adapter: RepositoryAdapter,
  memento: string,
): Promise<AuditedWrite<string>> {
  const change = await readAround(adapter, resourceOf(memento), undefined);
  return {
    action: 'version.restore',
    // The repository writes the resource anew: it records that as the restore it is.
    asActor: true,
    contextUri: (resource) => resource,
    detail: (resource) => change(resource),
  };
}

/** DELETE /version: the memento and its label (looked up first: it goes with the memento). */
export async function versionDeletion(versions: VersionFacet, memento: string): Promise<AuditedWrite<void>> {
  const resource = resourceOf(memento);
  const label = (await versions.list(resource)).find((version) => version.uri === memento)?.name ?? null;
  return {
    action: 'version.delete',
    contextUri: () => resource,
    detail: () => ({ version: memento, label }),
  };
}
