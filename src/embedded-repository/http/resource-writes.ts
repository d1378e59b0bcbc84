import { randomUUID } from 'node:crypto';
import type { Quad } from 'n3';
import type sparqljs from 'sparqljs';
import { repositoryPatchPolicy } from '../../linked-data/sparql/update-policies.js';
import { SparqlUpdateRefusal } from '../../linked-data/sparql/update-refusal.js';
import { mapUpdateIris } from '../../linked-data/sparql/update-iris.js';
import { vetSparqlUpdate } from '../../linked-data/sparql/update-vetter.js';
import { isRdfMediaType, REPOSITORY_BODY } from '../../linked-data/rdf/media-types.js';
import { toStored } from '../../linked-data/rdf/serialize.js';
import { LDP } from '../../linked-data/rdf/vocab.js';
import type { ResourceKind, ResourceRecord } from '../store/record.js';
import type { LinkValue } from '../../linked-data/http/link.js';
import { RevisionConflict } from '../store/errors.js';
import { childPath, parentOf } from '../store/paths.js';
import type { WriteOp } from '../store/write-ops.js';
import { resourceEntry, tripleDiff, writeEntry } from './audit-entries.js';
import { hasBody, readText } from './body.js';
import { allowOf, header, visible, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { mediaTypeOf } from '../../linked-data/http/content-type.js';
import { checkWritePreconditions, parseLinks } from './headers.js';
import { TxIriMapper } from './path-transactions.js';
import { binaryEtag, rdfEtag, userQuads } from './render.js';
import {
  acceptUserTriples,
  currentServerManaged,
  interactionModel,
  lenient,
  parseBody,
  rebase,
  slugSegment,
  storeContent,
} from './write-input.js';
import { created, MAX_WRITE_ATTEMPTS, newRecord, retrying, retryingFrom, write } from './write-steps.js';

// Writing resources: POST (create a child), PUT (create or replace), PATCH (SPARQL Update), DELETE.

/** POST to a container: a child named by Slug (or a fresh UUID when taken or absent). */
export async function post(deps: RepositoryDeps, ctx: Ctx, parentPath: string): Promise<unknown> {
  const parent = await visible(deps, ctx, parentPath);
  if (parent.kind !== 'container')
    throw RepositoryError.notAllowed('A binary cannot have children', allowOf(parent));
  const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
  const kind = interactionModel(
    parseLinks(ctx.request.headers.link),
    mediaType,
    hasBody(ctx.request),
    deps.settings.dialect,
  );
  const slug = header(ctx.request, 'slug');
  const asked = slug === undefined || slug.trim() === '' ? undefined : slugSegment(slug);
  let path = childPath(parentPath, asked ?? randomUUID());
  // Fedora mints a new name when the requested one is taken. A name minted here is not looked up first:
  // were it taken, the write would meet a RevisionConflict and the loop below mint another.
  if (
    asked !== undefined &&
    ((await deps.store.get(path, ctx.txId)) !== undefined ||
      (await deps.store.goneAt(path, ctx.txId)) !== undefined)
  ) {
    path = childPath(parentPath, randomUUID());
  }
  const binary = kind === 'binary' ? await storeContent(deps, ctx, null) : null;
  const quads = kind === 'container' ? await creationQuads(deps, ctx, ctx.mapper.external(path)) : [];
  const firstIri = ctx.mapper.external(path);
  for (let attempt = 1; ; attempt++) {
    const iri = ctx.mapper.external(path);
    const ours = iri === firstIri ? quads : rebase(quads, firstIri, iri);
    const triples =
      kind === 'container' ? toStored(acceptUserTriples(ctx, ours, iri, lenient(ctx), new Set())) : '';
    const record = newRecord(ctx, path, kind, triples, binary);
    try {
      await write(deps, ctx, [{ op: 'put', record, base: null }], [writeEntry(ctx.who, undefined, record)]);
      return created(ctx, record);
    } catch (error) {
      if (!(error instanceof RevisionConflict) || attempt >= MAX_WRITE_ATTEMPTS) throw error;
      path = childPath(parentPath, randomUUID());
    }
  }
}

/**
 * PUT: creates the resource under an existing parent, or replaces its triples or content. Whether it creates
 * or replaces (and with it the interaction-model checks, the preconditions, 201 or 204) is decided on the
 * state found in the writer's turn: writers that came together to a new path all saw it free, and a
 * decision taken on that first look would have every one after the first try to create it again.
 */
export async function put(deps: RepositoryDeps, ctx: Ctx, path: string): Promise<unknown> {
  const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
  // Fedora 4.7 reads no interaction-model links (fedora-api.md §1.2): as if none were sent.
  const links = deps.settings.dialect === 'FEDORA_4' ? [] : parseLinks(ctx.request.headers.link);
  // A first look refuses early, before the body is read, and tells how to read the body.
  const readAt = deps.writers.mark();
  const seen = await deps.store.get(path, ctx.txId);
  let known: PutPlan | undefined = await planPut(deps, ctx, path, seen, links, mediaType);
  const { kind } = known;
  const iri = ctx.mapper.external(path);
  const binary = kind === 'binary' ? await storeContent(deps, ctx, null) : null;
  const quads =
    kind !== 'container'
      ? []
      : seen === undefined
        ? await creationQuads(deps, ctx, iri)
        : await parseBody(deps, ctx, iri);
  let result: { readonly record: ResourceRecord; readonly created: boolean } | undefined;
  await retrying(
    deps,
    ctx,
    path,
    async (changedSinceRead) => {
      // The first look stands unless a write here finished since (the revision check catches the rest).
      const plan =
        (changedSinceRead ? undefined : known) ?? (await planAgain(deps, ctx, path, links, mediaType));
      known = undefined;
      if (plan.kind !== kind) {
        throw RepositoryError.conflict(`The resource was changed concurrently into a ${plan.kind}; retry`);
      }
      const { current } = plan;
      let triples = current?.triples ?? '';
      if (kind === 'container') {
        const smt =
          current === undefined ? new Set<string>() : await currentServerManaged(deps, ctx, current);
        triples = toStored(acceptUserTriples(ctx, quads, iri, lenient(ctx), smt));
      }
      // No filename asked for keeps the one the binary has.
      const content =
        binary === null
          ? null
          : { ...binary, filename: binary.filename ?? current?.binary?.filename ?? null };
      const record =
        current === undefined
          ? newRecord(ctx, path, kind, triples, content)
          : {
              ...current,
              triples,
              binary: content ?? current.binary,
              lastModified: ctx.now,
              lastModifiedBy: ctx.user,
              revision: current.revision + 1,
            };
      await write(
        deps,
        ctx,
        [...plan.ops, { op: 'put', record, base: current?.revision ?? null }],
        [writeEntry(ctx.who, current, record)],
      );
      result = { record, created: current === undefined };
    },
    readAt,
  );
  if (result?.created === true) return created(ctx, result.record);
  return ctx.reply.code(204).send();
}

/** What a PUT does on the state it found: create (`current` undefined) or replace, as `kind`. */
interface PutPlan {
  readonly current: ResourceRecord | undefined;
  readonly kind: ResourceKind;
  /** Writes before the resource's own (a tombstone overwritten). */
  readonly ops: readonly WriteOp[];
}

async function planAgain(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  links: readonly LinkValue[],
  mediaType: string,
): Promise<PutPlan> {
  return planPut(deps, ctx, path, await deps.store.get(path, ctx.txId), links, mediaType);
}

/**
 * The checks of a PUT against the resource as it is (`current`): a tombstone (410 unless overwritten),
 * the preconditions, the interaction model (no change of it), the parent of a new resource.
 */
async function planPut(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  current: ResourceRecord | undefined,
  links: readonly LinkValue[],
  mediaType: string,
): Promise<PutPlan> {
  const ops: WriteOp[] = [];
  if (current === undefined) {
    const gone = await deps.store.goneAt(path, ctx.txId);
    if (gone !== undefined) {
      const overwrite = header(ctx.request, 'overwrite-tombstone')?.trim().toLowerCase() === 'true';
      if (!overwrite || gone !== path || ctx.txId !== null) await visible(deps, ctx, path);
      ops.push({ op: 'purgeTombstone', path });
    }
  }
  const etag =
    current === undefined ? undefined : current.kind === 'binary' ? binaryEtag(current) : rdfEtag(current);
  checkWritePreconditions(ctx.request.headers, etag);
  if (current === undefined) {
    const kind = interactionModel(links, mediaType, hasBody(ctx.request), deps.settings.dialect);
    const parentPath = parentOf(path);
    const parent = parentPath === null ? undefined : await deps.store.get(parentPath, ctx.txId);
    if (parent === undefined)
      throw RepositoryError.conflict('The parent container does not exist; create it first');
    if (parent.kind !== 'container') throw RepositoryError.conflict('A binary cannot have children');
    return { current, kind, ops };
  }
  const asked = links.filter((l) => l.rels.includes('type')).map((l) => l.uri);
  const wantsBinary = asked.includes(LDP.NonRDFSource);
  const wantsContainer = asked.some((uri) =>
    [LDP.BasicContainer, LDP.Container, LDP.RDFSource].includes(uri as never),
  );
  if ((current.kind === 'container' && wantsBinary) || (current.kind === 'binary' && wantsContainer)) {
    throw RepositoryError.conflict('The interaction model of a resource cannot be changed');
  }
  if (current.kind === 'container' && hasBody(ctx.request) && !isRdfMediaType(mediaType, REPOSITORY_BODY)) {
    throw RepositoryError.conflict(
      'A container is replaced with RDF; its interaction model cannot change to a binary',
    );
  }
  return { current, kind: current.kind, ops };
}

/**
 * The triples of a container being created: the RDF body, or on Fedora 4.x also a SPARQL Update run on
 * the new, empty container (vetted as a PATCH is).
 */
async function creationQuads(deps: RepositoryDeps, ctx: Ctx, iri: string): Promise<Quad[]> {
  const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
  if (deps.settings.dialect !== 'FEDORA_4' || mediaType !== 'application/sparql-update')
    return parseBody(deps, ctx, iri);
  const text = await readText(ctx.request, deps.settings.rdfBodyLimit);
  return deps.updates.apply([], text, iri, vetPatch(ctx, text, iri));
}

/** PATCH with SPARQL Update, of a container or (with `description`) of a binary's fcr:metadata. */
export async function patch(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  description: boolean,
): Promise<unknown> {
  const mediaType = mediaTypeOf(header(ctx.request, 'content-type'));
  const readAt = deps.writers.mark();
  const first = await visible(deps, ctx, path);
  if (!description && first.kind === 'binary') {
    throw RepositoryError.badRequest('A binary is not patched; PATCH its description at fcr:metadata', true);
  }
  if (mediaType !== 'application/sparql-update') {
    throw RepositoryError.unsupportedMediaType('PATCH accepts application/sparql-update');
  }
  const text = await readText(ctx.request, deps.settings.rdfBodyLimit);
  const iri = ctx.mapper.external(path);
  const parsed = vetPatch(ctx, text, iri);
  await retryingFrom(deps, ctx, path, { record: first, at: readAt }, async (current) => {
    checkWritePreconditions(ctx.request.headers, rdfEtag(current));
    const result = await deps.updates.apply(userQuads(current, ctx.mapper), text, iri, parsed);
    const triples = toStored(acceptUserTriples(ctx, result, iri, false, new Set()));
    const record = { ...current, triples, lastModified: ctx.now, lastModifiedBy: ctx.user };
    await write(
      deps,
      ctx,
      [{ op: 'put', record, base: current.revision }],
      [writeEntry(ctx.who, current, record)],
    );
  });
  return ctx.reply.code(204).send();
}

/**
 * The PATCH body vetted under the repository's policy: a rule it breaks is a 400 linking the
 * constraints, a server-managed statement a 409; blank, unparsable text or a query a plain 400. Inside
 * a Fedora 4.x/5.x path transaction the update's plain repository IRIs become their tx-prefixed forms:
 * the graph it runs on shows those, and 4.x maps either address onto the same node.
 */
function vetPatch(ctx: Ctx, text: string, iri: string): sparqljs.Update {
  const parsed = vetted(text, iri);
  const mapper = ctx.mapper;
  return mapper instanceof TxIriMapper ? mapUpdateIris(parsed, (plain) => mapper.txForm(plain)) : parsed;
}

function vetted(text: string, iri: string): sparqljs.Update {
  try {
    return vetSparqlUpdate(text, repositoryPatchPolicy(iri));
  } catch (error) {
    if (!(error instanceof SparqlUpdateRefusal)) throw error;
    if (error.reason === 'serverManaged') throw RepositoryError.conflict(error.message);
    const unreadable = ['empty', 'syntax', 'notUpdate'].includes(error.reason);
    throw RepositoryError.badRequest(error.message, !unreadable);
  }
}

/** DELETE: recursive, leaves a tombstone; the root stays. */
export async function deleteResource(deps: RepositoryDeps, ctx: Ctx, path: string): Promise<unknown> {
  if (path === '')
    throw RepositoryError.notAllowed(
      'The repository root cannot be deleted',
      'GET, HEAD, OPTIONS, POST, PUT, PATCH',
    );
  const depth = header(ctx.request, 'depth');
  if (depth !== undefined && depth.trim().toLowerCase() !== 'infinity') {
    throw RepositoryError.badRequest('Only Depth: infinity is supported (deletes are recursive)');
  }
  await retrying(deps, ctx, path, async () => {
    const current = await visible(deps, ctx, path);
    checkWritePreconditions(
      ctx.request.headers,
      current.kind === 'binary' ? binaryEtag(current) : rdfEtag(current),
    );
    const { removed } = tripleDiff(ctx.who.mapper, current.triples, '');
    await write(
      deps,
      ctx,
      [{ op: 'delete', path, base: current.revision, user: ctx.user }],
      [resourceEntry(ctx.who, 'resource.delete', path, { removed })],
    );
  });
  return ctx.reply.code(204).send();
}
