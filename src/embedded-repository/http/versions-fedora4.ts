import type { Quad } from 'n3';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { FEDORA, XSD } from '../../linked-data/rdf/vocab.js';
import { MementoExists } from '../store/errors.js';
import type { ResourceRecord } from '../store/record.js';
import type { Memento } from '../store/repository.store.js';
import { binaryDetail, counted, resourceEntry, tripleDiff } from './audit-entries.js';
import { sendBinary } from './binary-representation.js';
import { discardBody } from './body.js';
import { header, release, sendOptions, visible, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { sendQuads } from './rdf-representation.js';
import { serverManagedQuads, typeLinks, userQuads } from './render.js';
import { labelOfSegment, versionIri, versionKey, versionLabel } from './version-labels.js';
import { retryingFrom, write } from './write-steps.js';

// Fedora 4.x labelled versions (fedora-api.md §1.7 "4.x"), for the FEDORA_4 dialect: POST fcr:versions
// with a Slug label, the list with fedora:hasVersion/hasVersionLabel, GET/PATCH (revert)/DELETE of
// fcr:versions/<label>. Versions share the memento table with Fedora 5/6 mode, keyed by the time in
// milliseconds (version-labels.ts) kept strictly increasing per resource: several versions a second are
// fine, and the last one in the table is the current version. No Memento headers.

const LIST_ALLOW = 'GET, HEAD, OPTIONS, POST, PUT';
const VERSION_ALLOW = 'GET, HEAD, OPTIONS, PATCH, DELETE';
/** Attempts at a version key before a run of same-millisecond collisions is reported as 409. */
const KEY_ATTEMPTS = 5;

/** `<uri>/fcr:versions`: the version list (GET), a new labelled version (POST). */
export async function labelledVersions(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  method: string,
): Promise<unknown> {
  const record = await visible(deps, ctx, path);
  switch (method) {
    case 'OPTIONS':
      return sendOptions(ctx, LIST_ALLOW, false);
    case 'POST': {
      const label = versionLabel(header(ctx.request, 'slug'));
      await discardBody(ctx.request, deps.settings.rdfBodyLimit);
      await snapshot(deps, ctx, record, label);
      const location = versionIri(ctx.mapper.external(path), label);
      ctx.reply.header('location', location);
      return ctx.reply.code(201).type('text/plain; charset=utf-8').send(location);
    }
    case 'PUT':
      // 4.x: "enable versioning". Every resource here is versionable already.
      await discardBody(ctx.request, deps.settings.rdfBodyLimit);
      return ctx.reply.code(204).send();
    case 'GET':
    case 'HEAD':
      break;
    default:
      throw RepositoryError.notAllowed(
        'Versions are listed, created with POST and removed one by one',
        LIST_ALLOW,
      );
  }
  const versions = await deps.store.mementos(path);
  if (versions.length === 0) throw RepositoryError.notFound('This resource has no versions');
  const iri = ctx.mapper.external(path);
  const quads: Quad[] = [];
  for (const v of versions) {
    const vIri = namedNode(versionIri(iri, v.label ?? v.memento));
    quads.push(quad(namedNode(iri), namedNode(FEDORA.hasVersion), vIri));
    quads.push(quad(vIri, namedNode(FEDORA.hasVersionLabel), literal(v.label ?? v.memento)));
    quads.push(
      quad(
        vIri,
        namedNode(FEDORA.created),
        literal(new Date(v.datetime).toISOString(), namedNode(XSD.dateTime)),
      ),
    );
  }
  return sendQuads(ctx, quads, method === 'HEAD', { allow: LIST_ALLOW, vary: 'Accept' });
}

/** `<uri>/fcr:versions/<label>`: the version's content (GET), revert to it (PATCH), remove it (DELETE). */
export async function labelledVersion(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  segment: string,
  method: string,
): Promise<unknown> {
  await visible(deps, ctx, path);
  const version = await deps.store.memento(path, segment, labelOfSegment(segment));
  if (version === undefined) throw RepositoryError.notFound('No version with this label');
  switch (method) {
    case 'GET':
    case 'HEAD':
      return sendVersion(deps, ctx, version.record, method === 'HEAD');
    case 'OPTIONS':
      return sendOptions(ctx, VERSION_ALLOW, false);
    case 'PATCH':
      return revert(deps, ctx, path, version);
    case 'DELETE': {
      const newest = (await deps.store.mementos(path)).at(-1);
      if (newest?.memento === version.memento)
        throw RepositoryError.badRequest('Cannot remove current version');
      const entry = resourceEntry(ctx.who, 'version.delete', path, {
        version: versionIri(ctx.who.mapper.external(path), version.label ?? version.memento),
        label: version.label,
      });
      const digest = await deps.store.deleteMemento(path, version.memento, [entry]);
      counted(ctx.who, [entry]);
      if (digest !== null) release(deps, [digest]);
      return ctx.reply.code(204).send();
    }
    default:
      throw RepositoryError.notAllowed('A version is read, reverted to (PATCH) or removed', VERSION_ALLOW);
  }
}

/** A binary version's bytes (as the binary itself is served), or a container version's triples. */
async function sendVersion(
  deps: RepositoryDeps,
  ctx: Ctx,
  record: ResourceRecord,
  head: boolean,
): Promise<unknown> {
  if (record.kind === 'binary') return sendBinary(deps, ctx, record, { head });
  const quads = [...serverManagedQuads(record, ctx.mapper), ...userQuads(record, ctx.mapper)];
  return sendQuads(ctx, quads, head, {
    allow: VERSION_ALLOW,
    link: typeLinks('container').join(', '),
    vary: 'Accept',
  });
}

/**
 * PATCH fcr:versions/<label>: the current state is kept first as `auto-snapshot-before-<label>` (so the
 * revert can be undone), then the resource takes the version's user triples, or its bytes for a binary.
 * Children and server-managed facts other than the modification stay as they are.
 */
async function revert(deps: RepositoryDeps, ctx: Ctx, path: string, version: Memento): Promise<unknown> {
  await discardBody(ctx.request, deps.settings.rdfBodyLimit);
  const readAt = deps.writers.mark();
  const current = await visible(deps, ctx, path);
  await snapshot(
    deps,
    ctx,
    current,
    await freeSnapshotLabel(deps, path, `auto-snapshot-before-${version.label ?? version.memento}`),
  );
  const from = version.record;
  // The first attempt writes over the state just snapshotted, unless a write here finished since.
  await retryingFrom(deps, ctx, path, { record: current, at: readAt }, async (now) => {
    const record: ResourceRecord = {
      ...now,
      triples: from.triples,
      binary: now.kind === 'binary' ? (from.binary ?? now.binary) : now.binary,
      lastModified: ctx.now,
      lastModifiedBy: ctx.user,
      revision: now.revision + 1,
    };
    const label = version.label ?? version.memento;
    const entry = resourceEntry(ctx.who, 'version.restore', path, {
      ...tripleDiff(ctx.who.mapper, now.triples, record.triples),
      ...(record.binary !== null && record.binary !== now.binary ? binaryDetail(record.binary) : {}),
      version: versionIri(ctx.who.mapper.external(path), label),
      label,
    });
    await write(deps, ctx, [{ op: 'put', record, base: now.revision }], [entry]);
  });
  return ctx.reply.code(204).send();
}

/** `wanted`, or `wanted-2`, `wanted-3`… when an earlier revert to the same label took it. */
async function freeSnapshotLabel(deps: RepositoryDeps, path: string, wanted: string): Promise<string> {
  const taken = new Set((await deps.store.mementos(path)).map((m) => m.label));
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/** Keeps `record` as a version labelled `label`; a label in use is 409 as in Fedora 4. */
async function snapshot(
  deps: RepositoryDeps,
  ctx: Ctx,
  record: ResourceRecord,
  label: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const existing = await deps.store.mementos(record.path);
    if (existing.some((m) => m.label === label))
      throw RepositoryError.conflict(`Version label "${label}" is already assigned to another version`);
    // Strictly after the newest version, so that the newest is always the current one.
    const datetime = Math.max(ctx.now, (existing.at(-1)?.datetime ?? 0) + 1);
    try {
      const entry = resourceEntry(ctx.who, 'version.create', record.path, {
        version: versionIri(ctx.who.mapper.external(record.path), label),
        label,
      });
      await deps.store.insertMemento(
        { path: record.path, memento: versionKey(datetime), label, datetime, record },
        [entry],
      );
      counted(ctx.who, [entry]);
      return;
    } catch (error) {
      // A concurrent version took the key (or the label, found on the next round).
      if (!(error instanceof MementoExists) || attempt >= KEY_ATTEMPTS) throw error;
    }
  }
}
