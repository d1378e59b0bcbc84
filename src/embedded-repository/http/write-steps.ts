import type { AuditEntry } from '../../audit/audit-event.js';
import type { ResourceKind, BinaryInfo, ResourceRecord } from '../store/record.js';
import { RevisionConflict } from '../store/errors.js';
import { parentOf } from '../store/paths.js';
import type { WriteOp } from '../store/write-ops.js';
import { counted } from './audit-entries.js';
import { header, release, sub, visible, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { binaryEtag, link, rdfEtag, typeLinks } from './render.js';

// The steps every write shares: applying or staging, retrying on a concurrent change, the answers.

/** Attempts before a write that keeps meeting concurrent changes gives up (409). */
export const MAX_WRITE_ATTEMPTS = 40;

/**
 * Applies or stages writes with their ledger `entries` (in the same database transaction; inside a
 * repository transaction they are held until it commits); GC of content files no longer referenced
 * happens after the fact.
 */
export async function write(
  deps: RepositoryDeps,
  ctx: Ctx,
  ops: readonly WriteOp[],
  entries: readonly AuditEntry[],
): Promise<void> {
  if (ctx.txId !== null) {
    await deps.store.stage(ctx.txId, ops, ctx.now, Date.now() + deps.settings.txTimeoutMs, entries);
  } else {
    release(deps, await deps.store.apply(ops, ctx.now, entries));
  }
  counted(ctx.who, entries);
}

/**
 * Runs read-check-write until it applies without a concurrent change. With If-Match a lost race is
 * 412 (the client's ETag is stale); without, the write is recomputed on the new state (no lost update).
 * Writes to one path in this process take turns (`deps.writers`): writers that came together would
 * otherwise all read the same revision and all but one start over. The revision check stays the
 * guarantee, against other instances too. A caller that read the resource before (`readAt`, a
 * `deps.writers.mark()` taken before that read) is told whether a write to the path finished since, so
 * that its first attempt does not write over a state it knows to be out of date.
 */
export async function retrying(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  attempt: (changedSinceRead: boolean) => Promise<void>,
  readAt?: number,
): Promise<void> {
  const conditional = header(ctx.request, 'if-match') !== undefined;
  await deps.writers.run(
    path,
    async (changed) => {
      for (let i = 1; ; i++) {
        try {
          await attempt(changed);
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
    },
    readAt,
  );
}

/**
 * `retrying` for a write computed from the resource as read before (`read.record`; `read.at`, a
 * `deps.writers.mark()` taken before that read). The first attempt works on that record unless a write to
 * the path finished since (the revision check still catches any other change, with a retry or 412 under
 * If-Match, so reading again first would only repeat it); every later attempt reads the resource again.
 */
export async function retryingFrom(
  deps: RepositoryDeps,
  ctx: Ctx,
  path: string,
  read: { readonly record: ResourceRecord; readonly at: number },
  attempt: (current: ResourceRecord) => Promise<void>,
): Promise<void> {
  let known: ResourceRecord | undefined = read.record;
  await retrying(
    deps,
    ctx,
    path,
    async (changedSinceRead) => {
      const current = (changedSinceRead ? undefined : known) ?? (await visible(deps, ctx, path));
      known = undefined;
      await attempt(current);
    },
    read.at,
  );
}

/** A record for a resource created by this request. */
export function newRecord(
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

/** 201 with Location, the type links and the ETag of what was created. */
export function created(ctx: Ctx, record: ResourceRecord): unknown {
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
