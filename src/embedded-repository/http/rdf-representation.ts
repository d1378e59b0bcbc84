import type { FastifyReply } from 'fastify';
import type { Quad } from 'n3';
import { contentTypeOf, RDF_OUTPUT_TYPES } from '../../linked-data/rdf/media-types.js';
import { serializeRdf } from '../../linked-data/rdf/serialize.js';
import { MEMENTO } from '../../linked-data/rdf/vocab.js';
import type { ResourceRecord } from '../store/record.js';
import type { Memento } from '../store/repository.store.js';
import { allowOf, header, sub, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { mediaTypeParameter } from '../../linked-data/http/content-type.js';
import { negotiateMediaType } from '../../linked-data/http/negotiation.js';
import { etagMatches, httpDate, parsePrefer } from './headers.js';
import {
  ACCEPT_PATCH,
  ACCEPT_POST,
  aclLink,
  containmentQuads,
  dialectLinks,
  link,
  rdfEtag,
  renderPlan,
  serverManagedQuads,
  smtShapeOf,
  TX_ENDPOINT_REL,
  typeLinks,
  userQuads,
} from './render.js';

// RDF answers (a resource, a description, a memento, a timemap, a fixity report): content negotiation,
// Prefer, the Link and validator headers, and the serialised body.

/** The RDF of a container, a binary's description or a memento, with the headers each mode carries. */
export async function sendRdf(
  deps: RepositoryDeps,
  ctx: Ctx,
  record: ResourceRecord,
  options: { head: boolean; mode: 'resource' | 'description' | 'memento'; memento?: Memento },
): Promise<unknown> {
  const { request, reply, mapper } = ctx;
  const chosen = negotiateMediaType(header(request, 'accept'), RDF_OUTPUT_TYPES);
  if (chosen === undefined)
    throw new RepositoryError(406, `Acceptable types: ${RDF_OUTPUT_TYPES.join(', ')}`);
  const preferences = parsePrefer(header(request, 'prefer'));
  const plan = renderPlan(preferences);
  const quads: Quad[] = [];
  if (plan.serverManaged) {
    const shape = await smtShapeOf(deps, record, options.mode !== 'memento');
    quads.push(...serverManagedQuads(record, mapper, shape));
  }
  if (plan.user) quads.push(...userQuads(record, mapper));
  if (plan.containment && record.kind === 'container' && options.mode === 'resource') {
    quads.push(...containmentQuads(record, await deps.store.children(record.path, ctx.txId), mapper));
  }
  if (plan.inbound && options.mode !== 'memento') {
    const target = mapper.external(record.path);
    for (const { line } of await deps.store.inboundLines(`info:fedora/${record.path}`, record.path)) {
      quads.push(...userQuads({ ...record, triples: line }, mapper).filter((q) => q.object.value === target));
    }
  }
  const iri = mapper.external(record.path);
  const etag = rdfEtag(record);
  const links: string[] = [];
  let allow: string;
  if (options.mode === 'description') {
    links.push(...typeLinks('description'), link(iri, 'describes'));
    if (deps.settings.dialect === 'FEDORA_5') links.push(aclLink(iri));
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
    links.push(...typeLinks('container'), ...dialectLinks(deps.settings.dialect, iri));
    // Every 6.x root advertises its transaction endpoint (detection relies on it); 4.x and 5.x do not.
    if (record.path === '' && deps.settings.dialect === 'FEDORA_6')
      links.push(link(`${ctx.base}/fcr:tx`, TX_ENDPOINT_REL));
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
    chosen.type === 'application/ld+json' ? mediaTypeParameter(chosen.accepted, 'profile') : undefined;
  return sendSerialized(reply, quads, chosen.type, profile, options.head);
}

/** Quads negotiated into one of the RDF output types, with extra headers (a fixity report). */
export async function sendQuads(
  ctx: Ctx,
  quads: Quad[],
  head: boolean,
  extraHeaders: Record<string, string>,
): Promise<unknown> {
  const chosen = negotiateMediaType(header(ctx.request, 'accept'), RDF_OUTPUT_TYPES);
  if (chosen === undefined)
    throw new RepositoryError(406, `Acceptable types: ${RDF_OUTPUT_TYPES.join(', ')}`);
  ctx.reply.headers(extraHeaders);
  return sendSerialized(ctx.reply, quads, chosen.type, undefined, head);
}

/** Writes the serialised body; HEAD answers its length only. */
export async function sendSerialized(
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
