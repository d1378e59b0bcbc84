import type { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import type { AuditLog } from '../audit/audit-log.js';
import { metadataChange } from '../audit/audit-triples.js';
import type { Principal } from '../auth/roles.js';
import type { DataVersion } from '../db/data-version.js';
import { contextEvent } from '../events/change-events.js';
import { NO_EVENTS, type EventAction, type EventBus } from '../events/event-bus.js';
import { quad } from '../linked-data/rdf/terms.js';
import type {
  BinaryContent,
  FixityResult,
  RepositoryKind,
} from '../repository-adapters/repository-adapter.js';
import { requireFacet } from '../repository-adapters/repository-kinds.js';
import type { OpenedView, RepositoryViewService } from '../repository-views/repository-view.service.js';
import { NO_UPKEEP, type IndexUpkeep } from '../search/indexing/index-upkeep.js';
import { BadRequestError, ForbiddenError } from '../shared/errors.js';
import { ContextAudit, type RecordAs } from './context-audit.js';
import {
  binaryUploaded,
  childCreated,
  digesting,
  FIXITY_CHECKED,
  queryUpdate,
  VERSION_CREATED,
  versionDeletion,
  versionRestore,
} from './context-audit-details.js';
import { childTriples, type RepositoryViewContext, type TransactionDetails } from './context-builder.js';
import { aboutContext, childStatements } from './context-input.js';
import { details, renderContext } from './context-render.js';
import { ancestorIris, irisToName, withNames, type IndexNames } from './context-names.js';
import type { ContextSession } from './context-session.js';
import { resolveContextUri } from './context-uri.js';
import { queryHelp, vetContextUpdate } from './query.js';
import { RenderCache, type RenderCacheLimits } from './render-cache.js';
import { parseObject, type WireTriple } from './triple-format.js';

export type { ContextSession };

export interface ContextServiceOptions {
  /**
   * The database's change signal: when it covers the embedded repository's tables, renders of views
   * this process answers itself are kept until the next write (render-cache.ts). Absent: none kept.
   */
  readonly dataVersion?: DataVersion;
  readonly renderCache?: RenderCacheLimits;
  /** Where each write is announced (`context/<viewId>` events; default: nowhere). */
  readonly events?: EventBus;
  /** Told of each write, so an external view's search index follows it (DECISIONS.md §12; default: nobody). */
  readonly upkeep?: IndexUpkeep;
  /** Where each write is recorded (DECISIONS.md §14; default: nowhere). */
  readonly audit?: AuditLog;
}

/**
 * The repository view context (interface §4.4, DECISIONS.md §7): every operation goes through the
 * view's adapter; a request inside a live transaction extends it and reports its new expiry.
 */
export class ContextService {
  /** Built contexts of in-process views (undefined: the database cannot tell when to drop them). */
  readonly renders: RenderCache | undefined;
  private readonly events: EventBus;
  private readonly upkeep: IndexUpkeep;
  private readonly audit: ContextAudit;

  constructor(
    private readonly views: RepositoryViewService,
    /** The view's search index, which names the children and the ancestors (DECISIONS.md §12). */
    private readonly index: IndexNames,
    options: ContextServiceOptions = {},
  ) {
    const { dataVersion } = options;
    this.events = options.events ?? NO_EVENTS;
    this.upkeep = options.upkeep ?? NO_UPKEEP;
    this.audit = new ContextAudit(options.audit);
    // A budget of 0 keeps nothing (SCRIPTORIUM_RENDER_CACHE_MIB=0).
    this.renders =
      dataVersion?.watchesRepository === true && options.renderCache?.maxBytes !== 0
        ? new RenderCache(dataVersion, options.renderCache)
        : undefined;
  }

  async open(
    type: RepositoryKind,
    viewId: number,
    contextUri: string | undefined,
    caller: Principal,
    requestId?: string,
  ): Promise<ContextSession> {
    return this.sessionIn(await this.views.open(type, viewId, caller), contextUri, caller, requestId);
  }

  /** A session in a view already opened (and its permission checked) for this request. */
  sessionIn(
    opened: OpenedView,
    contextUri: string | undefined,
    caller: Principal,
    requestId?: string,
  ): ContextSession {
    return { opened, context: resolveContextUri(opened.view.rootUri, contextUri), caller, requestId };
  }

  /** Opens the view only (GET /transaction and GET /query take no contextUri). */
  openView(type: RepositoryKind, viewId: number, caller: Principal): Promise<OpenedView> {
    return this.views.open(type, viewId, caller);
  }

  /**
   * The context as the repository has it now. Outside a transaction, a view answered in process is
   * rendered once per database state (render-cache.ts); a `tx:` context always asks the repository,
   * since the transaction's expiry is part of the answer and refreshing it is the point.
   */
  async read(session: ContextSession): Promise<RepositoryViewContext> {
    const { opened, context } = session;
    const rendered =
      this.renders === undefined || context.tx !== undefined || !RenderCache.covers(opened.adapter)
        ? await renderContext(session)
        : await this.renders.render(opened.adapter, opened.metadataPrefixes, context.uri, () =>
            renderContext(session),
          );
    return this.named(session, rendered);
  }

  /**
   * Names the children and the ancestors from the view's index: ONE index query per read, whatever the
   * number of children. Done on every read, the render kept or not: the index changes without a write
   * to the repository (an INDEX job, the feed catching up on another instance), which the render
   * cache's signal may not see, so a kept render holds no names and never shows a stale one. Inside a
   * transaction the names are the index's, i.e. as committed.
   */
  private async named(
    session: ContextSession,
    rendered: RepositoryViewContext,
  ): Promise<RepositoryViewContext> {
    const { opened, context } = session;
    const ancestors = ancestorIris(opened.view.rootUri, context, opened.view.type === 'LDP');
    const iris = irisToName(rendered, ancestors);
    const summaries =
      iris.length === 0 ? new Map<string, never>() : await this.index.summaries(opened.view.id, iris);
    return withNames(rendered, ancestors, summaries);
  }

  async triples(session: ContextSession): Promise<WireTriple[]> {
    const context = await this.read(session);
    return [...context.properties, ...context.metadata];
  }

  async children(session: ContextSession): Promise<WireTriple[]> {
    return childTriples(await this.read(session));
  }

  async metadata(session: ContextSession): Promise<WireTriple[]> {
    return (await this.read(session)).metadata;
  }

  /** Creates ONE child container carrying the posted triples (their subjects are ignored). */
  async createChild(session: ContextSession, body: unknown): Promise<RepositoryViewContext> {
    const statements = childStatements(body);
    const child = await this.audit.write(session, childCreated(statements), () =>
      session.opened.adapter.createChild(session.context.uri, statements, session.context.tx),
    );
    this.changed(session, 'CREATE', child, 'Resource created');
    // The container changed too (its last-modified time, on most repositories).
    this.indexWritten(session, child, session.context.uri);
    return this.read(session);
  }

  async addMetadata(session: ContextSession, body: unknown): Promise<RepositoryViewContext> {
    await this.writeTriples(session, [], [aboutContext(session, body)], 'Metadata added');
    return this.read(session);
  }

  /** Replaces the body triple's object with `value` (PUT /metadata). */
  async updateMetadata(
    session: ContextSession,
    body: unknown,
    value: string | undefined,
  ): Promise<RepositoryViewContext> {
    if (value === undefined) throw new BadRequestError('The query parameter value is required');
    const old = aboutContext(session, body);
    const replacement = quad(old.subject, old.predicate, parseObject(value) as typeof old.object);
    await this.writeTriples(session, [old], [replacement], 'Metadata updated');
    return this.read(session);
  }

  async deleteMetadata(session: ContextSession, body: unknown): Promise<RepositoryViewContext> {
    await this.writeTriples(session, [aboutContext(session, body)], [], 'Metadata deleted');
    return this.read(session);
  }

  /**
   * Removes then adds triples of the context (one PATCH), recorded as `metadata.update` unless
   * `recordAs` says otherwise (a revert), announced with `message`. With `ifMatch`, only if the resource is unchanged.
   */
  async writeTriples(
    session: ContextSession,
    removed: readonly Quad[],
    added: readonly Quad[],
    message: string,
    options: { ifMatch?: string | undefined; recordAs?: RecordAs } = {},
  ): Promise<void> {
    const { uri, tx } = session.context;
    await this.audit.write(
      session,
      { action: 'metadata.update', detail: () => metadataChange(removed, added) },
      () => session.opened.adapter.updateTriples(uri, removed, added, tx, { ifMatch: options.ifMatch }),
      this.audit.actorOf(session, options.recordAs),
    );
    this.changed(session, 'UPDATE', uri, message);
    this.indexWritten(session, uri);
  }

  /** A vetted SPARQL Update, re-generated from its parsed terms (ADMIN only, by the permission table). */
  async query(session: ContextSession, body: unknown): Promise<RepositoryViewContext> {
    if (typeof body !== 'string')
      throw new BadRequestError(
        'The body must be a JSON string (or application/sparql-update text) holding the update',
      );
    const update = vetContextUpdate(body, session.context.uri);
    const { adapter } = session.opened;
    const { uri, tx } = session.context;
    const updated = await queryUpdate(adapter, uri, tx, update);
    await this.audit.write(session, updated, () => adapter.runUpdate(uri, update, tx));
    this.changed(session, 'UPDATE', session.context.uri, 'Metadata updated by a query');
    this.indexWritten(session, session.context.uri);
    return this.read(session);
  }

  queryHelp(opened: OpenedView): string {
    return queryHelp(opened.schemas);
  }

  async uploadResource(
    session: ContextSession,
    file: { content: Readable; filename: string; contentType: string },
  ): Promise<RepositoryViewContext> {
    const bytes = digesting(file.content);
    const binary = await this.audit.write(
      session,
      binaryUploaded(file, () => bytes.sent()),
      () =>
        session.opened.adapter.uploadBinary(
          session.context.uri,
          { ...file, content: bytes.content },
          session.context.tx,
        ),
    );
    this.changed(session, 'CREATE', binary, 'File uploaded');
    this.indexWritten(session, binary, session.context.uri);
    return this.read(session);
  }

  download(session: ContextSession): Promise<BinaryContent> {
    return session.opened.adapter.downloadBinary(session.context.uri, session.context.tx);
  }

  async delete(session: ContextSession): Promise<void> {
    // Deleting the root empties the whole view (its versions go too): an administrator's decision.
    if (session.context.isRoot && session.caller.role !== 'ROLE_ADMIN')
      throw new ForbiddenError('Only an administrator may delete the root of a repository view');
    await this.audit.write(session, { action: 'resource.delete', detail: () => ({}) }, () =>
      session.opened.adapter.delete(session.context.uri, session.context.tx),
    );
    this.changed(session, 'DELETE', session.context.uri, 'Resource deleted');
    this.indexDeleted(session, session.context.uri);
    if (session.context.tx !== undefined)
      await requireFacet(session.opened.adapter, 'transactions').refresh(session.context.tx);
  }

  async fixity(session: ContextSession): Promise<FixityResult> {
    const fixity = requireFacet(session.opened.adapter, 'fixity');
    return this.audit.write(session, FIXITY_CHECKED, () =>
      fixity.check(session.context.uri, session.context.tx),
    );
  }

  async startTransaction(opened: OpenedView): Promise<TransactionDetails> {
    return details(await requireFacet(opened.adapter, 'transactions').begin());
  }

  async refreshTransaction(session: ContextSession): Promise<TransactionDetails> {
    const tx = requireTx(session);
    return details(await transactionsOf(session).refresh(tx));
  }

  async commitTransaction(session: ContextSession): Promise<void> {
    const tx = requireTx(session);
    const transactions = transactionsOf(session);
    await this.audit.commit(session, tx, () => transactions.commit(tx));
    this.changed(session, 'UPDATE', session.context.uri, 'Transaction committed', false);
    this.upkeep.transactionEnded(writtenView(session), tx.id, true);
  }

  async rollbackTransaction(session: ContextSession): Promise<void> {
    const tx = requireTx(session);
    const transactions = transactionsOf(session);
    await this.audit.rollback(session, tx, () => transactions.rollback(tx));
    this.changed(session, 'UPDATE', session.context.uri, 'Transaction rolled back', false);
    this.upkeep.transactionEnded(writtenView(session), tx.id, false);
  }

  async createVersion(session: ContextSession, name: string | undefined): Promise<RepositoryViewContext> {
    const label = name ?? '';
    if (label.length > 200 || /[/\\?#\s]/.test(label))
      throw new BadRequestError(
        'A version name must be at most 200 characters without spaces, slashes, ? or #',
      );
    const versions = requireFacet(session.opened.adapter, 'versions');
    const version = await this.audit.write(session, VERSION_CREATED, () =>
      versions.create(session.context.uri, label),
    );
    this.changed(session, 'CREATE', version.uri, 'Version created');
    return this.read(session);
  }

  /** Restores the resource a memento belongs to; answers the restored resource's context. */
  async restoreVersion(session: ContextSession): Promise<RepositoryViewContext> {
    const versions = requireFacet(session.opened.adapter, 'versions');
    const restored = await versionRestore(session.opened.adapter, session.context.uri);
    const resource = await this.audit.write(session, restored, () => versions.restore(session.context.uri));
    const context = resolveContextUri(session.opened.view.rootUri, resource);
    this.changed(session, 'UPDATE', context.uri, 'Version restored');
    this.indexWritten({ ...session, context }, context.uri);
    return this.read({ ...session, context });
  }

  async deleteVersion(session: ContextSession): Promise<void> {
    const versions = requireFacet(session.opened.adapter, 'versions');
    const deletion = await versionDeletion(versions, session.context.uri);
    await this.audit.write(session, deletion, () => versions.delete(session.context.uri));
    this.changed(session, 'DELETE', session.context.uri, 'Version deleted');
  }

  /**
   * Announces a write to the view's curators. Inside a transaction nothing is visible to others until
   * the commit, which is announced too; the message says so.
   */
  private changed(
    session: ContextSession,
    action: EventAction,
    uri: string,
    message: string,
    inTransaction = session.context.tx !== undefined,
  ): void {
    const text = inTransaction ? `${message} in a transaction (seen once committed)` : message;
    this.events.publish(contextEvent(session.opened.view.id, action, uri, text));
  }

  /** Tells the search index of resources written in this session (versions are not indexed). */
  private indexWritten(session: ContextSession, ...uris: string[]): void {
    this.upkeep.written(writtenView(session), { uris, deleted: false, txId: session.context.tx?.id });
  }

  /** Tells the search index of a resource deleted in this session, with everything it contained. */
  private indexDeleted(session: ContextSession, uri: string): void {
    this.upkeep.written(writtenView(session), { uris: [uri], deleted: true, txId: session.context.tx?.id });
  }
}

function writtenView(session: ContextSession) {
  const { opened } = session;
  return { viewId: opened.view.id, rootUri: opened.view.rootUri, adapter: opened.adapter };
}

/** Asked for after the token is checked, so that a missing token is reported first, as before. */
function transactionsOf(session: ContextSession) {
  return requireFacet(session.opened.adapter, 'transactions');
}

function requireTx(session: ContextSession) {
  if (session.context.tx === undefined) throw new BadRequestError('Failed to find transaction token.');
  return session.context.tx;
}
