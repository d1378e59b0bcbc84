import type { Quad } from 'n3';
import { parseDigestHeader } from '../binaries/digests.js';
import { isRdfMediaType, REPOSITORY_BODY } from '../../linked-data/rdf/media-types.js';
import { parseRdf } from '../../linked-data/rdf/parse.js';
import { isServerManaged } from '../../linked-data/rdf/server-managed.js';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import { FEDORA, LDP, NS } from '../../linked-data/rdf/vocab.js';
import type { BinaryInfo, ResourceKind, ResourceRecord } from '../store/record.js';
import { bodyStream, hasBody, readText } from './body.js';
import { hasControlCharacter, header, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { answerToRdfError } from './store-errors.js';
import type { LinkValue } from '../../linked-data/http/link.js';
import type { FedoraDialect } from '../../shared/fedora-dialect.js';
import {
  dispositionFilename,
  MalformedDispositionError,
} from '../../linked-data/http/content-disposition.js';
import { mediaTypeOf } from '../../linked-data/http/content-type.js';
import { parsePrefer } from './headers.js';
import { TxIriMapper } from './path-transactions.js';
import { canonicalSegment } from './paths.js';
import { containmentQuads, serverManagedQuads, smtShapeOf } from './render.js';

// What a write takes from the request: the interaction model, the client's triples, binary content, a Slug.

/**
 * Decides container or binary from Link rel="type" and the media type (Fedora 5/6 rules). Fedora 4.7
 * knows no interaction-model links and decides by the media type alone (fedora-api.md §1.2).
 */
export function interactionModel(
  links: readonly LinkValue[],
  mediaType: string,
  withBody: boolean,
  dialect: FedoraDialect,
): ResourceKind {
  if (dialect === 'FEDORA_4') return kindByMediaType(mediaType, withBody, dialect);
  if (links.some((l) => l.rels.includes(FEDORA.ExternalContent))) {
    throw RepositoryError.unsupportedMediaType('External content (copy, redirect, proxy) is not supported');
  }
  let kind: ResourceKind | undefined;
  for (const l of links.filter((x) => x.rels.includes('type'))) {
    if (l.uri === LDP.NonRDFSource) kind = 'binary';
    else if ([LDP.BasicContainer, LDP.Container, LDP.RDFSource].includes(l.uri as never))
      kind ??= 'container';
    else if (l.uri === LDP.DirectContainer || l.uri === LDP.IndirectContainer) {
      throw RepositoryError.conflict(
        'Direct and indirect containers are not supported; use basic containers',
      );
    } else if (l.uri === FEDORA.ArchivalGroup)
      throw RepositoryError.conflict('Archival groups are not supported');
    else if (l.uri.startsWith(NS.ldp) && l.uri !== LDP.Resource) {
      throw RepositoryError.badRequest(`Unknown interaction model <${l.uri}>`, true);
    }
  }
  return kind ?? kindByMediaType(mediaType, withBody, dialect);
}

function kindByMediaType(mediaType: string, withBody: boolean, dialect: FedoraDialect): ResourceKind {
  if (isRdfMediaType(mediaType, REPOSITORY_BODY)) return 'container';
  // Fedora 4.7 makes a container and runs the update on it (fedora-api.md §1.2); later lines refuse.
  if (mediaType === 'application/sparql-update' && dialect === 'FEDORA_4') return 'container';
  if (mediaType === 'application/sparql-update') {
    throw RepositoryError.unsupportedMediaType('SPARQL Update creates nothing; PATCH an existing resource');
  }
  if (!withBody && mediaType === '') return 'container';
  return 'binary';
}

/**
 * Keeps the client's triples about this resource: server-managed ones are refused (409) unless they
 * equal what the server says already or `lenient` handling was asked for; statements about other
 * repository resources are refused. Returns them in stored (internal IRI) form.
 */
export function acceptUserTriples(
  ctx: Ctx,
  quads: readonly Quad[],
  iri: string,
  lenient: boolean,
  current: ReadonlySet<string>,
): Quad[] {
  const kept: Quad[] = [];
  const refused: string[] = [];
  for (const q of quads) {
    if (isServerManaged(q.predicate.value, q.object)) {
      if (lenient || current.has(keyOf(q))) continue;
      refused.push(
        `<${q.subject.value}> <${q.predicate.value}> ${q.object.termType === 'NamedNode' ? `<${q.object.value}>` : JSON.stringify(q.object.value)}`,
      );
      continue;
    }
    if (q.subject.termType === 'NamedNode') {
      const path = ctx.mapper.pathOf(q.subject.value);
      // Inside a Fedora 4.x/5.x transaction a resource has a tx-prefixed and a plain IRI: either is it.
      const subject =
        ctx.mapper instanceof TxIriMapper ? ctx.mapper.txForm(q.subject.value) : q.subject.value;
      if (path !== undefined && subject !== iri && !subject.startsWith(`${iri}#`)) {
        throw RepositoryError.conflict(
          `Statements may only be about this resource, not <${q.subject.value}>`,
        );
      }
    }
    kept.push(ctx.mapper.mapQuad(q, 'internal'));
  }
  if (refused.length > 0) {
    throw RepositoryError.conflict(
      `Server-managed statements cannot be set:\n${refused.slice(0, 20).join('\n')}`,
    );
  }
  return kept;
}

/** The client's RDF body (none: no triples), read up to the RDF body limit and parsed against `iri`. */
export async function parseBody(deps: RepositoryDeps, ctx: Ctx, iri: string): Promise<Quad[]> {
  const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
  if (!hasBody(ctx.request)) return [];
  if (!isRdfMediaType(mediaType, REPOSITORY_BODY)) {
    throw RepositoryError.unsupportedMediaType(
      `Send RDF as text/turtle, application/n-triples, application/ld+json or application/rdf+xml`,
    );
  }
  const text = await readText(ctx.request, deps.settings.rdfBodyLimit);
  try {
    return await parseRdf(text, mediaType, REPOSITORY_BODY, iri);
  } catch (error) {
    throw answerToRdfError(error, mediaType);
  }
}

/** Prefer: handling=lenient drops server-managed triples instead of refusing them. */
export function lenient(ctx: Ctx): boolean {
  return parsePrefer(header(ctx.request, 'prefer')).handling === 'lenient';
}

/** Streams a binary body to the binary store (size, Digest checked); no filename keeps the previous one. */
export async function storeContent(
  deps: RepositoryDeps,
  ctx: Ctx,
  previous: BinaryInfo | null,
): Promise<BinaryInfo> {
  const expected = parseDigestHeader(header(ctx.request, 'digest'));
  const length = Number(ctx.request.headers['content-length'] ?? '0');
  if (length > deps.settings.maxBinaryBytes) {
    throw new RepositoryError(
      413,
      `The binary is larger than the limit of ${deps.settings.maxBinaryBytes} bytes`,
    );
  }
  const contentType = (header(ctx.request, 'content-type') ?? '').trim();
  if (/[^\x20-\x7e]/.test(contentType)) throw RepositoryError.badRequest('Malformed Content-Type');
  const filename = requestFilename(header(ctx.request, 'content-disposition'));
  if (filename !== undefined && (filename.length > 1024 || hasControlCharacter(filename))) {
    throw RepositoryError.badRequest('Invalid filename in Content-Disposition');
  }
  const declared = ctx.request.headers['content-length'];
  const stored = await deps.binaries.write(bodyStream(ctx.request), {
    maxBytes: deps.settings.maxBinaryBytes,
    expected,
    // Node's HTTP parser ends the body at its declared length (a shorter one is an aborted request), so an
    // object store can send it in one request.
    ...(declared !== undefined && /^\d+$/.test(declared) ? { length: Number(declared) } : {}),
  });
  return {
    mimeType: contentType === '' ? 'application/octet-stream' : contentType,
    filename: filename ?? previous?.filename ?? null,
    size: stored.size,
    sha512: stored.sha512,
    sha256: stored.sha256,
  };
}

/** Keys of the server-managed triples the resource has now, which a PUT may repeat unchanged. */
export async function currentServerManaged(
  deps: RepositoryDeps,
  ctx: Ctx,
  record: ResourceRecord,
): Promise<Set<string>> {
  const quads = serverManagedQuads(record, ctx.mapper, await smtShapeOf(deps, record));
  if (record.kind === 'container')
    quads.push(...containmentQuads(record, await deps.store.children(record.path, ctx.txId), ctx.mapper));
  return new Set(quads.map(keyOf));
}

function keyOf(q: Quad): string {
  return `${q.subject.termType}:${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}:${
    q.object.termType === 'Literal' ? (q.object as { datatype: { value: string } }).datatype.value : ''
  }`;
}

/** A Slug as a path segment: characters outside a path segment are percent-encoded; "/" and dots are refused. */
export function slugSegment(slug: string): string {
  const trimmed = slug.trim();
  if (trimmed.length > 255) throw RepositoryError.badRequest('Slug is longer than 255 characters', true);
  if (trimmed.toLowerCase().startsWith('fcr:'))
    throw RepositoryError.badRequest('Slug may not start with fcr:', true);
  const encoded = trimmed.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/g, (c) => encodeURIComponent(c));
  const segment = canonicalSegment(encoded.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  if (segment.includes('/')) throw RepositoryError.badRequest('Slug may not contain "/"', true);
  return segment;
}

/** Re-resolves parsed triples from one base IRI to another (a POST whose minted name changed). */
export function rebase(quads: readonly Quad[], from: string, to: string): Quad[] {
  const swap = (value: string) =>
    value === from ? to : value.startsWith(`${from}#`) ? to + value.slice(from.length) : value;
  return quads.map((q) =>
    quad(
      q.subject.termType === 'NamedNode' ? namedNode(swap(q.subject.value)) : q.subject,
      q.predicate,
      q.object.termType === 'NamedNode' ? namedNode(swap(q.object.value)) : q.object,
    ),
  );
}

/** The client's filename; a Content-Disposition that cannot be read is 400 (the client can fix it). */
function requestFilename(disposition: string | undefined): string | undefined {
  try {
    return dispositionFilename(disposition, { strict: true });
  } catch (error) {
    if (error instanceof MalformedDispositionError) throw RepositoryError.badRequest(error.message);
    throw error;
  }
}
