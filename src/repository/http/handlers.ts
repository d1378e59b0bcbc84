import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Quad } from 'n3';
import type { BinaryStore } from '../binaries/binary-store.js';
import { parseDigestHeader, parseWantDigest } from '../binaries/digests.js';
import { isRdfMediaType, parseRdf } from '../rdf/parse.js';
import { contentTypeOf, RDF_OUTPUT_TYPES, serializeRdf } from '../rdf/serialize.js';
import { checkSparqlUpdate } from '../rdf/sparql-update.js';
import { IriMapper, literal, namedNode, quad, toStored } from '../rdf/terms.js';
import { FEDORA, LDP, MEMENTO, NS, PREMIS, RDF_TYPE, XSD, isServerManaged } from '../rdf/vocab.js';
import type { SparqlUpdateRunner } from '../sparql/update-runner.js';
import type { BinaryInfo, ResourceKind, ResourceRecord } from '../store/record.js';
import {
  TransactionUnusable,
  type Memento,
  type RepositoryStore,
  type WriteOp,
} from '../store/repository.store.js';
import { isActiveMediaType, REPOSITORY_SAFETY_HEADERS } from './active-content.js';
import { bodyStream, discardBody, hasBody, readText } from './body.js';
import { RepositoryError, RevisionConflict } from './errors.js';
import {
  checkWritePreconditions,
  contentDisposition,
  dispositionFilename,
  etagMatches,
  httpDate,
  mediaTypeOf,
  mediaTypeParameter,
  mementoStamp,
  negotiate,
  parseLinks,
  parsePrefer,
  parseRange,
  type LinkValue,
} from './headers.js';
import { canonicalSegment, childPath, MOUNT, parentOf, parseTarget, type Target } from './paths.js';
import {
  ACCEPT_PATCH,
  ACCEPT_POST,
  binaryEtag,
  containmentQuads,
  link,
  mementoLinks,
  rdfEtag,
  renderPlan,
  serverManagedQuads,
  TX_COMMIT_REL,
  TX_ENDPOINT_REL,
  typeLinks,
  userQuads,
} from './render.js';

export interface RepositorySettings {
  /** Largest RDF or SPARQL body, in bytes. */
  readonly rdfBodyLimit: number;
  readonly maxBinaryBytes: number;
  readonly txTimeoutMs: number;
}

interface Ctx {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The repository root as this client addresses it, without the trailing slash. */
  readonly base: string;
  readonly mapper: IriMapper;
  readonly txId: string | null;
  readonly user: string;
  readonly now: number;
}

/** Replies to which the plugin's onSend hook must give back their Expires header (transaction start). */
export const expiresOverride = new WeakMap<FastifyReply, string>();
/** The user a request authenticated as (set by the plugin's Basic auth hook). */
export const authenticatedUser = new WeakMap<FastifyRequest, string>();

const TIMEMAP_TYPES = [...RDF_OUTPUT_TYPES, 'application/link-format'] as const;
const MAX_WRITE_ATTEMPTS = 40;

function sub(iri: string, segment: string): string {
  return `${iri.replace(/\/$/, '')}/${segment}`;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The embedded repository's request handling: one entry point that parses the target and dispatches by
 * what it names and the method. Every answer is an LDP/Fedora answer; failures are RepositoryErrors that
 * the plugin's error handler writes as plain text with the right status.
 */
export class RepositoryHandlers {
  constructor(
    private readonly store: RepositoryStore,
    private readonly binaries: BinaryStore,
    private readonly settings: RepositorySettings,
    private readonly log: FastifyBaseLogger,
    /** Runs SPARQL Updates in worker threads, with a time and a solution limit. */
    private readonly updates: SparqlUpdateRunner,
  ) {}

  async handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const target = parseTarget(request.raw.url ?? '');
    const base = baseOf(request);
    const method = request.method;
    if (target.kind === 'txEndpoint' || target.kind === 'tx')
      return this.transactionEndpoint(request, reply, base, target, method);
    if (target.kind === 'constraints') return this.constraints(reply, method);
    const ctx: Ctx = {
      request,
      reply,
      base,
      mapper: new IriMapper(base),
      txId: await this.transactionOf(request, base),
      user: authenticatedUser.get(request) ?? 'anonymous',
      now: Date.now(),
    };
    if (ctx.txId !== null) reply.header('atomic-id', `${base}/fcr:tx/${ctx.txId}`);
    switch (target.kind) {
      case 'resource':
        return this.resource(ctx, target.path, method);
      case 'metadata':
        return this.description(ctx, target.path, method);
      case 'versions':
        return this.versions(ctx, target.path, method);
      case 'memento':
        return this.memento(ctx, target.path, target.memento, method);
      case 'fixity':
        return this.fixity(ctx, target.path, method);
      case 'tombstone':
        return this.tombstone(ctx, target.path, method);
    }
  }

  // ---- dispatch by target ----------------------------------------------------------------------

  private async resource(ctx: Ctx, path: string, method: string): Promise<unknown> {
    switch (method) {
      case 'GET':
      case 'HEAD':
        return this.getResource(ctx, path, method === 'HEAD');
      case 'OPTIONS': {
        const record = await this.visible(ctx, path);
        return this.options(ctx, allowOf(record), record.kind === 'container');
      }
      case 'POST':
        return this.post(ctx, path);
      case 'PUT':
        return this.put(ctx, path);
      case 'PATCH':
        return this.patch(ctx, path, false);
      case 'DELETE':
        return this.delete(ctx, path);
      default:
        throw RepositoryError.notAllowed(
          `${method} is not supported`,
          'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE',
        );
    }
  }

  private async description(ctx: Ctx, path: string, method: string): Promise<unknown> {
    const allow = 'GET, HEAD, OPTIONS, PUT, PATCH';
    const record = await this.visible(ctx, path);
    if (record.kind !== 'binary')
      throw RepositoryError.notFound('Only binaries have a description (fcr:metadata)');
    switch (method) {
      case 'GET':
      case 'HEAD':
        return this.sendRdf(ctx, record, { head: method === 'HEAD', mode: 'description' });
      case 'OPTIONS':
        return this.options(ctx, allow, false);
      case 'PUT':
        return this.putDescription(ctx, path);
      case 'PATCH':
        return this.patch(ctx, path, true);
      default:
        throw RepositoryError.notAllowed('A description is deleted with its binary', allow);
    }
  }

  private async fixity(ctx: Ctx, path: string, method: string): Promise<unknown> {
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
      throw RepositoryError.notAllowed('fcr:fixity is read-only', 'GET, HEAD, OPTIONS');
    }
    const record = await this.visible(ctx, path);
    if (record.binary === null) throw RepositoryError.notFound('Fixity is only available for binaries');
    if (method === 'OPTIONS') return this.options(ctx, 'GET, HEAD, OPTIONS', false);
    const binary = record.binary;
    const { size, digests } = await this.binaries.digest(binary.sha512, ['sha512', 'sha256']);
    const sha512 = digests.get('sha512')?.toString('hex') ?? '';
    const sha256 = digests.get('sha256')?.toString('hex') ?? '';
    const outcome = size !== binary.size ? 'BAD_SIZE' : sha512 !== binary.sha512 ? 'BAD_CHECKSUM' : 'SUCCESS';
    const iri = ctx.mapper.external(record.path);
    const result = namedNode(`${iri}#${randomUUID()}`);
    const p = (name: string) => namedNode(name);
    const quads: Quad[] = [
      quad(namedNode(iri), p(PREMIS.hasFixity), result),
      quad(result, p(RDF_TYPE), p(PREMIS.Fixity)),
      quad(result, p(RDF_TYPE), p(PREMIS.EventOutcomeDetail)),
      quad(result, p(PREMIS.hasEventOutcome), literal(outcome)),
      quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha-512:${sha512}`)),
      quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha-256:${sha256}`)),
      quad(result, p(PREMIS.hasSize), literal(String(size), namedNode(XSD.long))),
    ];
    if (outcome !== 'SUCCESS') this.log.warn({ path: record.path, outcome }, 'fixity check failed');
    return this.sendQuads(ctx, quads, method === 'HEAD', {});
  }

  private async tombstone(ctx: Ctx, path: string, method: string): Promise<unknown> {
    const tomb = await this.store.tombstone(path);
    if (tomb === undefined) throw RepositoryError.notFound('No tombstone at this path');
    if (method === 'OPTIONS') return this.options(ctx, 'DELETE, OPTIONS', false);
    if (method !== 'DELETE')
      throw RepositoryError.notAllowed('A tombstone can only be deleted (purged)', 'DELETE, OPTIONS');
    if (ctx.txId !== null)
      throw RepositoryError.badRequest('Tombstones cannot be purged inside a transaction', true);
    await this.store.apply([{ op: 'purgeTombstone', path }], ctx.now);
    return ctx.reply.code(204).send();
  }

  private constraints(reply: FastifyReply, method: string): unknown {
    if (method !== 'GET' && method !== 'HEAD') throw RepositoryError.notAllowed('Read-only', 'GET, HEAD');
    return reply.type('text/plain; charset=utf-8').send(CONSTRAINTS_TEXT);
  }

  // ---- reading ---------------------------------------------------------------------------------

  /** The resource at `path` as this request sees it; 410 (with the tombstone link) or 404 otherwise. */
  private async visible(ctx: Ctx, path: string): Promise<ResourceRecord> {
    const record = await this.store.get(path, ctx.txId);
    if (record !== undefined) return record;
    const gone = await this.store.goneAt(path, ctx.txId);
    if (gone !== undefined) {
      throw new RepositoryError(410, 'The resource has been deleted', {
        headers: { link: link(sub(ctx.mapper.external(gone), 'fcr:tombstone'), 'hasTombstone') },
      });
    }
    throw RepositoryError.notFound();
  }

  private async getResource(ctx: Ctx, path: string, head: boolean): Promise<unknown> {
    const record = await this.visible(ctx, path);
    const acceptDatetime = header(ctx.request, 'accept-datetime');
    if (acceptDatetime !== undefined) return this.timegate(ctx, record, acceptDatetime);
    if (record.kind === 'binary') return this.sendBinary(ctx, record, { head });
    return this.sendRdf(ctx, record, { head, mode: 'resource' });
  }

  private async sendRdf(
    ctx: Ctx,
    record: ResourceRecord,
    options: { head: boolean; mode: 'resource' | 'description' | 'memento'; memento?: Memento },
  ): Promise<unknown> {
    const { request, reply, mapper } = ctx;
    const chosen = negotiate(header(request, 'accept'), RDF_OUTPUT_TYPES);
    if (chosen === undefined)
      throw new RepositoryError(406, `Acceptable types: ${RDF_OUTPUT_TYPES.join(', ')}`);
    const preferences = parsePrefer(header(request, 'prefer'));
    const plan = renderPlan(preferences);
    const quads: Quad[] = [];
    if (plan.serverManaged) quads.push(...serverManagedQuads(record, mapper));
    if (plan.user) quads.push(...userQuads(record, mapper));
    if (plan.containment && record.kind === 'container' && options.mode === 'resource') {
      quads.push(...containmentQuads(record, await this.store.children(record.path, ctx.txId), mapper));
    }
    if (plan.inbound && options.mode !== 'memento') {
      const target = mapper.external(record.path);
      for (const { line } of await this.store.inboundLines(`info:fedora/${record.path}`, record.path)) {
        quads.push(
          ...userQuads({ ...record, triples: line }, mapper).filter((q) => q.object.value === target),
        );
      }
    }
    const iri = mapper.external(record.path);
    const etag = rdfEtag(record);
    const links: string[] = [];
    let allow: string;
    if (options.mode === 'description') {
      links.push(...typeLinks('description'), link(iri, 'describes'));
      allow = 'GET, HEAD, OPTIONS, PUT, PATCH';
    } else if (options.mode === 'memento' && options.memento !== undefined) {
      links.push(
        ...typeLinks('container'),
        link(MEMENTO.Memento, 'type'),
        link(iri, 'original timegate'),
        link(sub(iri, 'fcr:versions'), 'timemap'),
      );
      allow = 'GET, HEAD, OPTIONS, DELETE';
      reply.header('memento-datetime', httpDate(options.memento.datetime));
    } else {
      links.push(...typeLinks('container'), ...mementoLinks(iri));
      if (record.path === '') links.push(link(`${ctx.base}/fcr:tx`, TX_ENDPOINT_REL));
      allow = allowOf(record);
      reply.header('accept-post', ACCEPT_POST);
    }
    if (options.mode !== 'memento') reply.header('accept-patch', ACCEPT_PATCH);
    reply.header('allow', allow);
    reply.header('link', links.join(', '));
    reply.header('vary', 'Accept, Prefer, Accept-Datetime');
    if (plan.applied) reply.header('preference-applied', 'return=representation');
    if (options.mode !== 'memento') {
      reply.header('etag', etag);
      reply.header('last-modified', httpDate(record.lastModified));
      const ifNoneMatch = header(request, 'if-none-match');
      if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) return reply.code(304).send();
    }
    const profile =
      chosen.type === 'application/ld+json'
        ? mediaTypeParameter(`x; ${chosen.params}`, 'profile')
        : undefined;
    return this.sendSerialized(reply, quads, chosen.type, profile, options.head);
  }

  private async sendQuads(
    ctx: Ctx,
    quads: Quad[],
    head: boolean,
    extraHeaders: Record<string, string>,
  ): Promise<unknown> {
    const chosen = negotiate(header(ctx.request, 'accept'), RDF_OUTPUT_TYPES);
    if (chosen === undefined)
      throw new RepositoryError(406, `Acceptable types: ${RDF_OUTPUT_TYPES.join(', ')}`);
    ctx.reply.headers(extraHeaders);
    return this.sendSerialized(ctx.reply, quads, chosen.type, undefined, head);
  }

  private async sendSerialized(
    reply: FastifyReply,
    quads: Quad[],
    type: (typeof RDF_OUTPUT_TYPES)[number],
    profile: string | undefined,
    head: boolean,
  ): Promise<unknown> {
    const body = await serializeRdf(quads, type, profile);
    reply.type(contentTypeOf(type));
    if (head) return reply.header('content-length', String(Buffer.byteLength(body))).send();
    return reply.send(body);
  }

  private async sendBinary(
    ctx: Ctx,
    record: ResourceRecord,
    options: { head: boolean; memento?: Memento },
  ): Promise<unknown> {
    const { request, reply } = ctx;
    const binary = record.binary;
    if (binary === null) throw new Error(`binary ${record.path} without content`);
    const iri = ctx.mapper.external(record.path);
    const etag = binaryEtag(record);
    const links = [...typeLinks('binary'), link(sub(iri, 'fcr:metadata'), 'describedby')];
    if (options.memento === undefined) {
      links.push(...mementoLinks(iri));
      reply.header('allow', allowOf(record));
    } else {
      links.push(
        link(MEMENTO.Memento, 'type'),
        link(iri, 'original timegate'),
        link(sub(iri, 'fcr:versions'), 'timemap'),
      );
      reply.header('memento-datetime', httpDate(options.memento.datetime));
      reply.header('allow', 'GET, HEAD, OPTIONS, DELETE');
    }
    reply.header('link', links.join(', '));
    reply.header('etag', etag);
    reply.header('last-modified', httpDate(record.lastModified));
    reply.header('accept-ranges', 'bytes');
    reply.header('vary', 'Range, Accept-Datetime, Want-Digest');
    const query = (request.raw.url ?? '').split('?')[1] ?? '';
    // Active content (HTML, SVG, XML, script) is never inline: it would run on the service's origin.
    const inline = new URLSearchParams(query).get('inline') === 'true' && !isActiveMediaType(binary.mimeType);
    reply.headers(REPOSITORY_SAFETY_HEADERS);
    reply.header(
      'content-disposition',
      contentDisposition(inline ? 'inline' : 'attachment', binary.filename, binary.size),
    );
    const wantHeader = header(request, 'want-digest');
    if (wantHeader !== undefined) {
      const wanted = parseWantDigest(wantHeader);
      if (wanted.length === 0)
        throw RepositoryError.badRequest('None of the Want-Digest algorithms is supported', true);
      const { digests } = await this.binaries.digest(
        binary.sha512,
        wanted.map((w) => w.node),
      );
      reply.header(
        'digest',
        wanted.map((w) => `${w.name}=${digests.get(w.node)?.toString('base64') ?? ''}`).join(', '),
      );
    }
    const ifNoneMatch = header(request, 'if-none-match');
    if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag)) return reply.code(304).send();
    reply.type(binary.mimeType);
    const ifRange = header(request, 'if-range');
    const range =
      ifRange === undefined || ifRange === etag
        ? parseRange(header(request, 'range'), binary.size)
        : undefined;
    if (range === 'unsatisfiable') {
      throw new RepositoryError(416, 'Range not satisfiable', {
        headers: { 'content-range': `bytes */${binary.size}` },
      });
    }
    if (range !== undefined) {
      reply.code(206);
      reply.header('content-range', `bytes ${range.start}-${range.end}/${binary.size}`);
      reply.header('content-length', String(range.end - range.start + 1));
    } else {
      reply.header('content-length', String(binary.size));
    }
    if (options.head) return reply.send();
    if (binary.size === 0) return reply.send('');
    return reply.send(this.binaries.read(binary.sha512, range));
  }

  private options(ctx: Ctx, allow: string, container: boolean): unknown {
    ctx.reply.header('allow', allow);
    ctx.reply.header('accept-patch', ACCEPT_PATCH);
    if (container) ctx.reply.header('accept-post', ACCEPT_POST);
    ctx.reply.header('accept-external-content-handling', '');
    return ctx.reply.code(200).send();
  }

  // ---- writing ---------------------------------------------------------------------------------

  /** Applies or stages writes; GC of content files no longer referenced happens after the fact. */
  private async write(ctx: Ctx, ops: readonly WriteOp[]): Promise<void> {
    if (ctx.txId !== null) {
      await this.store.stage(ctx.txId, ops, ctx.now, Date.now() + this.settings.txTimeoutMs);
      return;
    }
    const released = await this.store.apply(ops, ctx.now);
    this.release(released);
  }

  release(digests: readonly string[]): void {
    if (digests.length === 0) return;
    void (async () => {
      const referenced = await this.store.referencedDigests(digests);
      await this.binaries.remove(digests.filter((d) => !referenced.has(d)));
    })().catch((error: unknown) => {
      this.log.warn({ err: error }, 'could not collect unreferenced binary content');
    });
  }

  /**
   * Runs read-check-write until it applies without a concurrent change. With If-Match a lost race is
   * 412 (the client's ETag is stale); without, the write is recomputed on the new state (no lost update).
   */
  private async retrying(ctx: Ctx, attempt: () => Promise<void>): Promise<void> {
    const conditional = header(ctx.request, 'if-match') !== undefined;
    for (let i = 1; ; i++) {
      try {
        await attempt();
        return;
      } catch (error) {
        if (!(error instanceof RevisionConflict)) throw error;
        if (conditional) throw RepositoryError.preconditionFailed();
        if (i >= MAX_WRITE_ATTEMPTS)
          throw RepositoryError.conflict('The resource is being changed concurrently; retry', false);
        // Back off a little (randomised) so that competing writers do not collide again at once.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * i));
      }
    }
  }

  /** Decides container or binary from Link rel="type" and the media type (Fedora 6 rules). */
  private interactionModel(links: readonly LinkValue[], mediaType: string, withBody: boolean): ResourceKind {
    if (links.some((l) => l.rel.includes(FEDORA.ExternalContent))) {
      throw RepositoryError.unsupportedMediaType('External content (copy, redirect, proxy) is not supported');
    }
    let kind: ResourceKind | undefined;
    for (const l of links.filter((x) => x.rel.includes('type'))) {
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
    if (kind !== undefined) return kind;
    if (isRdfMediaType(mediaType)) return 'container';
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
  private acceptUserTriples(
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
        if (path !== undefined && q.subject.value !== iri && !q.subject.value.startsWith(`${iri}#`)) {
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

  private async parseBody(ctx: Ctx, iri: string): Promise<Quad[]> {
    const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
    if (!hasBody(ctx.request)) return [];
    if (!isRdfMediaType(mediaType)) {
      throw RepositoryError.unsupportedMediaType(
        `Send RDF as text/turtle, application/n-triples, application/ld+json or application/rdf+xml`,
      );
    }
    const text = await readText(ctx.request, this.settings.rdfBodyLimit);
    return parseRdf(text, mediaType, iri);
  }

  private lenient(ctx: Ctx): boolean {
    return parsePrefer(header(ctx.request, 'prefer')).handling === 'lenient';
  }

  private async storeContent(ctx: Ctx, previous: BinaryInfo | null): Promise<BinaryInfo> {
    const expected = parseDigestHeader(header(ctx.request, 'digest'));
    const length = Number(ctx.request.headers['content-length'] ?? '0');
    if (length > this.settings.maxBinaryBytes) {
      throw new RepositoryError(
        413,
        `The binary is larger than the limit of ${this.settings.maxBinaryBytes} bytes`,
      );
    }
    const contentType = (header(ctx.request, 'content-type') ?? '').trim();
    if (/[^\x20-\x7e]/.test(contentType)) throw RepositoryError.badRequest('Malformed Content-Type');
    const filename = dispositionFilename(header(ctx.request, 'content-disposition'));
    if (filename !== undefined && (filename.length > 1024 || hasControlCharacter(filename))) {
      throw RepositoryError.badRequest('Invalid filename in Content-Disposition');
    }
    const stored = await this.binaries.write(bodyStream(ctx.request), {
      maxBytes: this.settings.maxBinaryBytes,
      expected,
    });
    return {
      mimeType: contentType === '' ? 'application/octet-stream' : contentType,
      filename: filename ?? previous?.filename ?? null,
      size: stored.size,
      sha512: stored.sha512,
      sha256: stored.sha256,
    };
  }

  private newRecord(
    ctx: Ctx,
    path: string,
    kind: ResourceKind,
    triples: string,
    binary: BinaryInfo | null,
  ): ResourceRecord {
    return {
      path,
      parent: parentOf(path),
      kind,
      triples,
      created: ctx.now,
      createdBy: ctx.user,
      lastModified: ctx.now,
      lastModifiedBy: ctx.user,
      revision: 1,
      binary,
    };
  }

  private created(ctx: Ctx, record: ResourceRecord): unknown {
    const iri = ctx.mapper.external(record.path);
    const links =
      record.kind === 'binary'
        ? [...typeLinks('binary'), link(sub(iri, 'fcr:metadata'), 'describedby')]
        : typeLinks('container');
    ctx.reply.header('location', iri);
    ctx.reply.header('link', links.join(', '));
    ctx.reply.header('etag', record.kind === 'binary' ? binaryEtag(record) : rdfEtag(record));
    return ctx.reply.code(201).type('text/plain; charset=utf-8').send(iri);
  }

  private async post(ctx: Ctx, parentPath: string): Promise<unknown> {
    const parent = await this.visible(ctx, parentPath);
    if (parent.kind !== 'container')
      throw RepositoryError.notAllowed('A binary cannot have children', allowOf(parent));
    const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
    const kind = this.interactionModel(parseLinks(ctx.request.headers.link), mediaType, hasBody(ctx.request));
    const slug = header(ctx.request, 'slug');
    let segment = slug === undefined || slug.trim() === '' ? randomUUID() : slugSegment(slug);
    let path = childPath(parentPath, segment);
    if (
      (await this.store.get(path, ctx.txId)) !== undefined ||
      (await this.store.goneAt(path, ctx.txId)) !== undefined
    ) {
      // Fedora mints a new name when the requested one is taken.
      segment = randomUUID();
      path = childPath(parentPath, segment);
    }
    const binary = kind === 'binary' ? await this.storeContent(ctx, null) : null;
    const quads = kind === 'container' ? await this.parseBody(ctx, ctx.mapper.external(path)) : [];
    const firstIri = ctx.mapper.external(path);
    for (let attempt = 1; ; attempt++) {
      const iri = ctx.mapper.external(path);
      const ours = iri === firstIri ? quads : rebase(quads, firstIri, iri);
      const triples =
        kind === 'container'
          ? toStored(this.acceptUserTriples(ctx, ours, iri, this.lenient(ctx), new Set()))
          : '';
      const record = this.newRecord(ctx, path, kind, triples, binary);
      try {
        await this.write(ctx, [{ op: 'put', record, base: null }]);
        return this.created(ctx, record);
      } catch (error) {
        if (!(error instanceof RevisionConflict) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
        path = childPath(parentPath, randomUUID());
      }
    }
  }

  private async put(ctx: Ctx, path: string): Promise<unknown> {
    const existing = await this.store.get(path, ctx.txId);
    const ops: WriteOp[] = [];
    if (existing === undefined) {
      const gone = await this.store.goneAt(path, ctx.txId);
      if (gone !== undefined) {
        const overwrite = header(ctx.request, 'overwrite-tombstone')?.trim().toLowerCase() === 'true';
        if (!overwrite || gone !== path || ctx.txId !== null) await this.visible(ctx, path);
        ops.push({ op: 'purgeTombstone', path });
      }
    }
    const etag =
      existing === undefined
        ? undefined
        : existing.kind === 'binary'
          ? binaryEtag(existing)
          : rdfEtag(existing);
    checkWritePreconditions(ctx.request.headers, etag);
    const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
    const links = parseLinks(ctx.request.headers.link);
    const kind = existing?.kind ?? this.interactionModel(links, mediaType, hasBody(ctx.request));
    if (existing !== undefined) {
      const asked = links.filter((l) => l.rel.includes('type')).map((l) => l.uri);
      const wantsBinary = asked.includes(LDP.NonRDFSource);
      const wantsContainer = asked.some((uri) =>
        [LDP.BasicContainer, LDP.Container, LDP.RDFSource].includes(uri as never),
      );
      if ((existing.kind === 'container' && wantsBinary) || (existing.kind === 'binary' && wantsContainer)) {
        throw RepositoryError.conflict('The interaction model of a resource cannot be changed');
      }
      if (existing.kind === 'container' && hasBody(ctx.request) && !isRdfMediaType(mediaType)) {
        throw RepositoryError.conflict(
          'A container is replaced with RDF; its interaction model cannot change to a binary',
        );
      }
    }
    if (existing === undefined) {
      const parentPath = parentOf(path);
      const parent = parentPath === null ? undefined : await this.store.get(parentPath, ctx.txId);
      if (parent === undefined)
        throw RepositoryError.conflict('The parent container does not exist; create it first');
      if (parent.kind !== 'container') throw RepositoryError.conflict('A binary cannot have children');
    }
    const iri = ctx.mapper.external(path);
    const binary = kind === 'binary' ? await this.storeContent(ctx, existing?.binary ?? null) : null;
    const quads = kind === 'container' ? await this.parseBody(ctx, iri) : [];
    let result: ResourceRecord | undefined;
    await this.retrying(ctx, async () => {
      const current = existing === undefined ? undefined : await this.store.get(path, ctx.txId);
      if (existing !== undefined && current === undefined) await this.visible(ctx, path);
      let triples = current?.triples ?? '';
      if (kind === 'container') {
        const smt = current === undefined ? new Set<string>() : await this.currentServerManaged(ctx, current);
        triples = toStored(this.acceptUserTriples(ctx, quads, iri, this.lenient(ctx), smt));
      }
      const record =
        current === undefined
          ? this.newRecord(ctx, path, kind, triples, binary)
          : {
              ...current,
              triples,
              binary: binary ?? current.binary,
              lastModified: ctx.now,
              lastModifiedBy: ctx.user,
              revision: current.revision + 1,
            };
      await this.write(ctx, [...ops, { op: 'put', record, base: current?.revision ?? null }]);
      result = record;
    });
    if (existing === undefined && result !== undefined) return this.created(ctx, result);
    return ctx.reply.code(204).send();
  }

  private async currentServerManaged(ctx: Ctx, record: ResourceRecord): Promise<Set<string>> {
    const quads = serverManagedQuads(record, ctx.mapper);
    if (record.kind === 'container')
      quads.push(...containmentQuads(record, await this.store.children(record.path, ctx.txId), ctx.mapper));
    return new Set(quads.map(keyOf));
  }

  private async putDescription(ctx: Ctx, path: string): Promise<unknown> {
    const first = await this.visible(ctx, path);
    checkWritePreconditions(ctx.request.headers, rdfEtag(first));
    const iri = ctx.mapper.external(path);
    const quads = await this.parseBody(ctx, iri);
    await this.retrying(ctx, async () => {
      const current = await this.visible(ctx, path);
      if (header(ctx.request, 'if-match') !== undefined)
        checkWritePreconditions(ctx.request.headers, rdfEtag(current));
      const triples = toStored(
        this.acceptUserTriples(
          ctx,
          quads,
          iri,
          this.lenient(ctx),
          await this.currentServerManaged(ctx, current),
        ),
      );
      await this.write(ctx, [
        {
          op: 'put',
          record: { ...current, triples, lastModified: ctx.now, lastModifiedBy: ctx.user },
          base: current.revision,
        },
      ]);
    });
    return ctx.reply.code(204).send();
  }

  private async patch(ctx: Ctx, path: string, description: boolean): Promise<unknown> {
    const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
    const first = await this.visible(ctx, path);
    if (!description && first.kind === 'binary') {
      throw RepositoryError.badRequest(
        'A binary is not patched; PATCH its description at fcr:metadata',
        true,
      );
    }
    if (mediaType !== 'application/sparql-update') {
      throw RepositoryError.unsupportedMediaType('PATCH accepts application/sparql-update');
    }
    const text = await readText(ctx.request, this.settings.rdfBodyLimit);
    if (text.trim() === '') throw RepositoryError.badRequest('The SPARQL Update is empty');
    const iri = ctx.mapper.external(path);
    const parsed = checkSparqlUpdate(text, iri);
    await this.retrying(ctx, async () => {
      const current = await this.visible(ctx, path);
      checkWritePreconditions(ctx.request.headers, rdfEtag(current));
      const result = await this.updates.apply(userQuads(current, ctx.mapper), text, iri, parsed);
      const triples = toStored(this.acceptUserTriples(ctx, result, iri, false, new Set()));
      await this.write(ctx, [
        {
          op: 'put',
          record: { ...current, triples, lastModified: ctx.now, lastModifiedBy: ctx.user },
          base: current.revision,
        },
      ]);
    });
    return ctx.reply.code(204).send();
  }

  private async delete(ctx: Ctx, path: string): Promise<unknown> {
    if (path === '')
      throw RepositoryError.notAllowed(
        'The repository root cannot be deleted',
        'GET, HEAD, OPTIONS, POST, PUT, PATCH',
      );
    const depth = header(ctx.request, 'depth');
    if (depth !== undefined && depth.trim().toLowerCase() !== 'infinity') {
      throw RepositoryError.badRequest('Only Depth: infinity is supported (deletes are recursive)');
    }
    await this.retrying(ctx, async () => {
      const current = await this.visible(ctx, path);
      checkWritePreconditions(
        ctx.request.headers,
        current.kind === 'binary' ? binaryEtag(current) : rdfEtag(current),
      );
      await this.write(ctx, [{ op: 'delete', path, base: current.revision, user: ctx.user }]);
    });
    return ctx.reply.code(204).send();
  }

  // ---- versions ----------------------------------------------------------------------------------

  private async versions(ctx: Ctx, path: string, method: string): Promise<unknown> {
    const allow = 'GET, HEAD, OPTIONS, POST';
    const record = await this.visible(ctx, path);
    const iri = ctx.mapper.external(path);
    const timemap = sub(iri, 'fcr:versions');
    const links = [...typeLinks('timemap'), link(iri, 'original'), link(iri, 'timegate')];
    switch (method) {
      case 'OPTIONS':
        ctx.reply.header('link', links.join(', '));
        ctx.reply.header('accept-post', '*/*');
        return this.options(ctx, allow, false);
      case 'POST':
        return this.createMemento(ctx, record);
      case 'GET':
      case 'HEAD':
        break;
      default:
        throw RepositoryError.notAllowed('Versions are created with POST and deleted one by one', allow);
    }
    const mementos = await this.store.mementos(path);
    ctx.reply.header('allow', allow);
    ctx.reply.header('accept-post', '*/*');
    ctx.reply.header('link', links.join(', '));
    ctx.reply.header('vary', 'Accept');
    const chosen = negotiate(header(ctx.request, 'accept'), TIMEMAP_TYPES);
    if (chosen === undefined) throw new RepositoryError(406, `Acceptable types: ${TIMEMAP_TYPES.join(', ')}`);
    if (chosen.type === 'application/link-format') {
      const entries = [link(iri, 'original'), link(iri, 'timegate')];
      const first = mementos[0];
      const last = mementos.at(-1);
      entries.push(
        link(
          timemap,
          'self',
          `; type="application/link-format"${first && last ? `; from="${httpDate(first.datetime)}"; until="${httpDate(last.datetime)}"` : ''}`,
        ),
      );
      for (const m of mementos)
        entries.push(link(sub(timemap, m.memento), 'memento', `; datetime="${httpDate(m.datetime)}"`));
      const body = entries.join(',\n');
      ctx.reply.type('application/link-format');
      if (method === 'HEAD')
        return ctx.reply.header('content-length', String(Buffer.byteLength(body))).send();
      return ctx.reply.send(body);
    }
    const s = namedNode(timemap);
    const quads: Quad[] = [];
    for (const m of mementos) {
      const mIri = namedNode(sub(timemap, m.memento));
      quads.push(quad(s, namedNode(LDP.contains), mIri));
      quads.push(
        quad(
          mIri,
          namedNode(MEMENTO.mementoDatetime),
          literal(new Date(m.datetime).toISOString(), namedNode(XSD.dateTime)),
        ),
      );
      if (m.label !== null) quads.push(quad(mIri, namedNode(FEDORA.hasVersionLabel), literal(m.label)));
    }
    return this.sendSerialized(ctx.reply, quads, chosen.type, undefined, method === 'HEAD');
  }

  private async createMemento(ctx: Ctx, record: ResourceRecord): Promise<unknown> {
    if (ctx.txId !== null)
      throw RepositoryError.badRequest('Versions cannot be created inside a transaction', true);
    if (header(ctx.request, 'memento-datetime') !== undefined) {
      throw RepositoryError.badRequest('Mementos with a chosen Memento-Datetime are not supported', true);
    }
    const slug = header(ctx.request, 'slug')?.trim();
    let label: string | null = null;
    if (slug !== undefined && slug !== '') {
      if (
        slug.length > 255 ||
        hasControlCharacter(slug) ||
        slug.includes('/') ||
        /^\d{14}$/.test(slug) ||
        slug.startsWith('fcr:')
      ) {
        throw RepositoryError.badRequest(
          'A version label must be 1–255 characters, not 14 digits, without "/" or control characters',
          true,
        );
      }
      label = slug;
    }
    // Spec 4.3.3.1: the body of a POST without Memento-Datetime is ignored. It is read and dropped, never
    // kept; one larger than an RDF body may be is refused at once (issue 8: it was buffered whole).
    await discardBody(ctx.request, this.settings.rdfBodyLimit);
    const datetime = Math.floor(ctx.now / 1000) * 1000;
    const memento = mementoStamp(datetime);
    await this.store.insertMemento({ path: record.path, memento, label, datetime, record });
    const location = sub(sub(ctx.mapper.external(record.path), 'fcr:versions'), memento);
    ctx.reply.header('location', location);
    ctx.reply.header('memento-datetime', httpDate(datetime));
    return ctx.reply.code(201).type('text/plain; charset=utf-8').send(location);
  }

  private async memento(ctx: Ctx, path: string, name: string, method: string): Promise<unknown> {
    const allow = 'GET, HEAD, OPTIONS, DELETE';
    await this.visible(ctx, path);
    let label = name;
    try {
      label = decodeURIComponent(name);
    } catch {
      // Not valid percent-encoding: only the timestamp form can match.
    }
    const memento = await this.store.memento(path, name, label);
    if (memento === undefined) throw RepositoryError.notFound('No such memento');
    switch (method) {
      case 'GET':
      case 'HEAD':
        if (memento.record.kind === 'binary')
          return this.sendBinary(ctx, memento.record, { head: method === 'HEAD', memento });
        return this.sendRdf(ctx, memento.record, { head: method === 'HEAD', mode: 'memento', memento });
      case 'OPTIONS':
        return this.options(ctx, allow, false);
      case 'DELETE': {
        if (ctx.txId !== null)
          throw RepositoryError.badRequest('Versions cannot be deleted inside a transaction', true);
        const digest = await this.store.deleteMemento(path, memento.memento);
        if (digest !== null) this.release([digest]);
        return ctx.reply.code(204).send();
      }
      default:
        throw RepositoryError.notAllowed('Mementos are immutable', allow);
    }
  }

  private async timegate(ctx: Ctx, record: ResourceRecord, acceptDatetime: string): Promise<unknown> {
    const wanted = Date.parse(acceptDatetime);
    if (Number.isNaN(wanted)) throw RepositoryError.badRequest('Accept-Datetime must be an RFC 1123 date');
    const mementos = await this.store.mementos(record.path);
    if (mementos.length === 0) throw new RepositoryError(406, 'The resource has no versions');
    const chosen = [...mementos].reverse().find((m) => m.datetime <= wanted) ?? mementos[0];
    if (chosen === undefined) throw new RepositoryError(406, 'The resource has no versions');
    const iri = ctx.mapper.external(record.path);
    ctx.reply.header('location', sub(sub(iri, 'fcr:versions'), chosen.memento));
    ctx.reply.header('vary', 'Accept-Datetime');
    ctx.reply.header(
      'link',
      [link(iri, 'original timegate'), link(sub(iri, 'fcr:versions'), 'timemap')].join(', '),
    );
    return ctx.reply.code(302).send();
  }

  // ---- transactions ------------------------------------------------------------------------------

  /** The transaction named by Atomic-ID (full URI or bare id), refreshed; 409 when it cannot be used. */
  private async transactionOf(request: FastifyRequest, base: string): Promise<string | null> {
    const value = header(request, 'atomic-id')?.trim();
    if (value === undefined || value === '') return null;
    const id = value.includes('/') ? (value.replace(/\/$/, '').split('/').at(-1) ?? '') : value;
    if (
      !/^[A-Za-z0-9-]{1,64}$/.test(id) ||
      (value.includes('/') && !value.startsWith(`${base}/fcr:tx/`) && !value.includes('/fcr:tx/'))
    ) {
      throw RepositoryError.conflict(`Atomic-ID ${value.slice(0, 100)} does not name a transaction`, false);
    }
    try {
      await this.store.touchTransaction(id, Date.now(), Date.now() + this.settings.txTimeoutMs);
    } catch (error) {
      if (error instanceof TransactionUnusable) throw RepositoryError.conflict(error.message, false);
      throw error;
    }
    return id;
  }

  private async transactionEndpoint(
    request: FastifyRequest,
    reply: FastifyReply,
    base: string,
    target: Extract<Target, { kind: 'txEndpoint' | 'tx' }>,
    method: string,
  ): Promise<unknown> {
    const now = Date.now();
    const expiresAt = now + this.settings.txTimeoutMs;
    if (target.kind === 'txEndpoint') {
      if (method === 'OPTIONS') return reply.header('allow', 'POST, OPTIONS').code(200).send();
      if (method !== 'POST')
        throw RepositoryError.notAllowed('Start a transaction with POST', 'POST, OPTIONS');
      const id = randomUUID();
      await this.store.beginTransaction(id, now, expiresAt);
      const uri = `${base}/fcr:tx/${id}`;
      expiresOverride.set(reply, httpDate(expiresAt));
      reply.header('location', uri);
      reply.header('atomic-expires', httpDate(expiresAt));
      reply.header('link', link(uri, TX_COMMIT_REL));
      return reply.code(201).type('text/plain; charset=utf-8').send(uri);
    }
    const id = target.id;
    const answer = (error: unknown): never => {
      if (error instanceof TransactionUnusable) {
        throw new RepositoryError(error.reason === 'unknown' ? 404 : 410, error.message);
      }
      throw error;
    };
    switch (method) {
      case 'GET':
      case 'HEAD': {
        const info = await this.store.transaction(id);
        if (info === undefined) throw RepositoryError.notFound('Unknown transaction');
        if (info.state !== 'open' || info.expires <= now)
          throw new RepositoryError(410, `Transaction ${id} is no longer open`);
        reply.header('atomic-expires', httpDate(info.expires));
        return reply.code(204).send();
      }
      case 'POST': {
        await this.store.touchTransaction(id, now, expiresAt).catch(answer);
        reply.header('atomic-expires', httpDate(expiresAt));
        return reply.code(204).send();
      }
      case 'PUT': {
        try {
          const released = await this.store.commit(id, now);
          this.release(released);
        } catch (error) {
          if (
            error instanceof RevisionConflict ||
            (error instanceof RepositoryError && error.status === 409)
          ) {
            // A conflicting commit fails whole; the transaction is rolled back (Fedora 6).
            const { released } = await this.store
              .rollback(id, Date.now())
              .catch(() => ({ released: [] as string[] }));
            this.release(released);
            throw RepositoryError.conflict(
              error instanceof RepositoryError
                ? error.message
                : `Commit conflict on ${error.path}: it changed outside the transaction`,
              false,
            );
          }
          answer(error);
        }
        return reply.code(204).send();
      }
      case 'DELETE': {
        const outcome = await this.store.rollback(id, now).catch(answer);
        this.release(outcome.released);
        if (outcome.expired) throw new RepositoryError(410, `Transaction ${id} had expired`);
        return reply.code(204).send();
      }
      case 'OPTIONS':
        return reply.header('allow', 'GET, HEAD, POST, PUT, DELETE, OPTIONS').code(200).send();
      default:
        throw RepositoryError.notAllowed(
          'Not a transaction operation',
          'GET, HEAD, POST, PUT, DELETE, OPTIONS',
        );
    }
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function allowOf(record: ResourceRecord): string {
  if (record.kind === 'binary') return 'GET, HEAD, OPTIONS, PUT, DELETE';
  return record.path === ''
    ? 'GET, HEAD, OPTIONS, POST, PUT, PATCH'
    : 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE';
}

function keyOf(q: Quad): string {
  return `${q.subject.termType}:${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}:${
    q.object.termType === 'Literal' ? (q.object as { datatype: { value: string } }).datatype.value : ''
  }`;
}

/** A Slug as a path segment: characters outside a path segment are percent-encoded; "/" and dots are refused. */
function slugSegment(slug: string): string {
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
function rebase(quads: readonly Quad[], from: string, to: string): Quad[] {
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

/** The repository root as the client addressed it (scheme and Host of the request) plus /rest. */
export function baseOf(request: FastifyRequest): string {
  const host = request.host;
  if (host === '' || !/^[A-Za-z0-9.\-[\]:]+$/.test(host))
    throw RepositoryError.badRequest('Missing or malformed Host header');
  return `${request.protocol}://${host}${MOUNT}`;
}

const CONSTRAINTS_TEXT = `Constraints of the Scriptorium embedded repository (a Fedora 6 compatible LDP server)

- Only basic containers and binaries (LDP-NR) exist; direct and indirect containers, archival groups and
  external content are refused.
- Server-managed statements cannot be set or changed: rdf:type with an ldp:, fedora: or memento: object,
  anything in the fedora: / fcrepo: / memento: namespaces, ldp:contains and the LDP membership predicates,
  premis:hasSize, premis:hasMessageDigest, premis:hasFixity, ebucore:filename, ebucore:hasMimeType,
  iana:describedby (409). PUT accepts them when they equal the current values, or drops them with
  Prefer: handling=lenient.
- Statements may only be about the resource itself (or its #fragments) and blank nodes or IRIs outside the
  repository.
- SPARQL Update: INSERT DATA, DELETE DATA, DELETE/INSERT WHERE and DELETE WHERE on the resource's own graph;
  LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY, GRAPH, WITH, USING and SERVICE are refused (400). An update
  may evaluate for a limited time, and the WHERE of each operation may have a limited number of solutions;
  past either it is stopped (422) and nothing changes.
- Versions: one memento per resource per second; none inside a transaction; Memento-Datetime is not
  accepted; an optional Slug gives a version a label.
- The interaction model of a resource cannot change; a resource's parent must exist before it is created.
`;
