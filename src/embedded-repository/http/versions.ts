import type { Quad } from 'n3';
import { RDF_OUTPUT_TYPES } from '../../linked-data/rdf/media-types.js';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { FEDORA, LDP, MEMENTO, XSD } from '../../linked-data/rdf/vocab.js';
import type { ResourceRecord } from '../store/record.js';
import { counted, resourceEntry } from './audit-entries.js';
import { sendBinary } from './binary-representation.js';
import { discardBody } from './body.js';
import {
  hasControlCharacter,
  header,
  release,
  sendOptions,
  sub,
  visible,
  type Ctx,
  type RepositoryDeps,
} from './context.js';
import { RepositoryError } from './errors.js';
import { negotiateMediaType } from '../../linked-data/http/negotiation.js';
import { httpDate, mementoStamp } from './headers.js';
import { link, typeLinks } from './render.js';
import { sendRdf, sendSerialized } from './rdf-representation.js';
import { labelledVersion, labelledVersions } from './versions-fedora4.js';

// Versions (Memento): the timemap at fcr:versions, creating and deleting mementos, the timegate. The
// FEDORA_5 dialect differs from 6 in three points (fedora-api.md §1.7): no Slug labels, versions may be
// made and removed inside a transaction. FEDORA_4 has labelled versions instead (versions-fedora4.ts).

const TIMEMAP_TYPES = [...RDF_OUTPUT_TYPES, 'application/link-format'] as const;

/** The timemap (fcr:versions): the list of mementos (RDF or link-format); POST creates one. */
export async function versions(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  method: string,
): Promise<unknown> {
  if (deps.settings.dialect === 'FEDORA_4') return labelledVersions(deps, ctx, path, method);
  const allow = 'GET, HEAD, OPTIONS, POST';
  const record = await visible(deps, ctx, path);
  const iri = ctx.mapper.external(path);
  const timemap = sub(iri, 'fcr:versions');
  const links = [...typeLinks('timemap'), link(iri, 'original'), link(iri, 'timegate')];
  switch (method) {
    case 'OPTIONS':
      ctx.reply.header('link', links.join(', '));
      ctx.reply.header('accept-post', '*/*');
      return sendOptions(ctx, allow, false);
    case 'POST':
      return createMemento(deps, ctx, record);
    case 'GET':
    case 'HEAD':
      break;
    default:
      throw RepositoryError.notAllowed('Versions are created with POST and deleted one by one', allow);
  }
  const mementos = await deps.store.mementos(path);
  ctx.reply.header('allow', allow);
  ctx.reply.header('accept-post', '*/*');
  ctx.reply.header('link', links.join(', '));
  ctx.reply.header('vary', 'Accept');
  const chosen = negotiateMediaType(header(ctx.request, 'accept'), TIMEMAP_TYPES);
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
    if (method === 'HEAD') return ctx.reply.header('content-length', String(Buffer.byteLength(body))).send();
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
  return sendSerialized(ctx.reply, quads, chosen.type, undefined, method === 'HEAD');
}

/** A memento of the resource's current state, optionally labelled by Slug. */
async function createMemento(deps: RepositoryDeps, ctx: Ctx, record: ResourceRecord): Promise<unknown> {
  const fedora5 = deps.settings.dialect === 'FEDORA_5';
  if (ctx.txId !== null && !fedora5)
    throw RepositoryError.badRequest('Versions cannot be created inside a transaction', true);
  if (header(ctx.request, 'memento-datetime') !== undefined) {
    throw RepositoryError.badRequest('Mementos with a chosen Memento-Datetime are not supported', true);
  }
  const slug = header(ctx.request, 'slug')?.trim();
  if (fedora5 && slug !== undefined) {
    throw RepositoryError.badRequest(
      'Slug is no longer supported on fcr:versions: mementos are named by time',
      true,
    );
  }
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
  await discardBody(ctx.request, deps.settings.rdfBodyLimit);
  const datetime = Math.floor(ctx.now / 1000) * 1000;
  const memento = mementoStamp(datetime);
  const version = sub(sub(ctx.who.mapper.external(record.path), 'fcr:versions'), memento);
  const entry = resourceEntry(ctx.who, 'version.create', record.path, { version, label });
  await deps.store.insertMemento({ path: record.path, memento, label, datetime, record }, [entry]);
  counted(ctx.who, [entry]);
  const location = sub(sub(ctx.mapper.external(record.path), 'fcr:versions'), memento);
  ctx.reply.header('location', location);
  ctx.reply.header('memento-datetime', httpDate(datetime));
  return ctx.reply.code(201).type('text/plain; charset=utf-8').send(location);
}

/** One memento, by its timestamp or its label: read or deleted, never changed. */
export async function memento(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  name: string,
  method: string,
): Promise<unknown> {
  if (deps.settings.dialect === 'FEDORA_4') return labelledVersion(deps, ctx, path, name, method);
  const allow = 'GET, HEAD, OPTIONS, DELETE';
  await visible(deps, ctx, path);
  let label = name;
  try {
    label = decodeURIComponent(name);
  } catch {
    // Not valid percent-encoding: only the timestamp form can match.
  }
  const memento = await deps.store.memento(path, name, label);
  if (memento === undefined) throw RepositoryError.notFound('No such memento');
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (memento.record.kind === 'binary')
        return sendBinary(deps, ctx, memento.record, { head: method === 'HEAD', memento });
      return sendRdf(deps, ctx, memento.record, { head: method === 'HEAD', mode: 'memento', memento });
    case 'OPTIONS':
      return sendOptions(ctx, allow, false);
    case 'DELETE': {
      if (ctx.txId !== null && deps.settings.dialect !== 'FEDORA_5')
        throw RepositoryError.badRequest('Versions cannot be deleted inside a transaction', true);
      const version = sub(sub(ctx.who.mapper.external(path), 'fcr:versions'), memento.memento);
      const entry = resourceEntry(ctx.who, 'version.delete', path, { version, label: memento.label });
      const digest = await deps.store.deleteMemento(path, memento.memento, [entry]);
      counted(ctx.who, [entry]);
      if (digest !== null) release(deps, [digest]);
      return ctx.reply.code(204).send();
    }
    default:
      throw RepositoryError.notAllowed('Mementos are immutable', allow);
  }
}

/** GET with Accept-Datetime (the resource is its own timegate): 302 to the memento in force then. */
export async function timegate(
  deps: RepositoryDeps,
  ctx: Ctx,
  record: ResourceRecord,
  acceptDatetime: string,
): Promise<unknown> {
  // Fedora 4 knows no Memento: Accept-Datetime is an unknown header there, the resource is served as is.
  if (deps.settings.dialect === 'FEDORA_4') {
    const head = ctx.request.method === 'HEAD';
    if (record.kind === 'binary') return sendBinary(deps, ctx, record, { head });
    return sendRdf(deps, ctx, record, { head, mode: 'resource' });
  }
  const wanted = Date.parse(acceptDatetime);
  if (Number.isNaN(wanted)) throw RepositoryError.badRequest('Accept-Datetime must be an RFC 1123 date');
  const mementos = await deps.store.mementos(record.path);
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
