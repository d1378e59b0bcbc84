import { createHash } from 'node:crypto';
import { isUniqueViolation } from '../db/sql-errors.js';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../auth/roles.js';
import type { AdapterView } from '../repository-adapters/create-adapter.js';
import type { RepositoryAdapter, RepositoryKind } from '../repository-adapters/repository-adapter.js';
import { metadataPrefixesOf, toSchemaJson, type Schema } from '../schemas/schema.js';
import { deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessInvalid as invalid, businessMessages as msg } from '../shared/business-messages.js';
import { BadRequestError, ForbiddenError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import type { BusinessOperation, ValidationCollector } from '../shared/validation.js';
import type { DetectedDialect } from '../shared/fedora-dialect.js';
import { repositoryViewEvent } from '../events/change-events.js';
import { NO_EVENTS, type EventAction, type EventBus } from '../events/event-bus.js';
import { toUserJson, type User } from '../users/user.js';
import type { PasswordCipher } from './password-cipher.js';
import { viewCreated, viewDeleted, viewUpdated } from './repository-view.audit.js';
import { ENTITY, type RepositoryView } from './repository-view.js';
import { parseRepositoryView, record, type RepositoryViewInput } from './repository-view.rules.js';
import type { RepositoryViewBody, VerificationBody } from './repository-view.schema.js';
import type { PasswordColumn, RepositoryViewStore } from './repository-view.store.js';

type Body = CheckedBody<RepositoryViewBody>;

/** What this capability needs from others, passed in by app.ts. */
export interface RepositoryViewDependencies {
  readonly schemas: () => Promise<readonly Schema[]>;
  readonly users: () => Promise<User[]>;
  readonly createAdapter: (view: AdapterView) => RepositoryAdapter;
  /** Where a failure that must not fail the request is told (storing a detected dialect). */
  readonly warn?: (message: string) => void;
  /** Where each change is announced (`repository-view` events; default: nowhere). */
  readonly events?: EventBus;
}

/**
 * Told after a view is created or changed, in the process that made the change (the search index starts
 * indexing a new external view), before the request is answered. The change is made already: what an
 * observer throws is told to `warn` and fails nothing.
 */
export interface RepositoryViewObserver {
  /** `caller`: who created it (the route's principal; absent when the service was called without one). */
  created?(view: RepositoryView, caller: Principal | undefined): Promise<void> | void;
  updated?(view: RepositoryView, before: RepositoryView): Promise<void> | void;
}

/** A view with everything a context needs: the adapter and the metadata prefixes of its schemas. */
export interface OpenedView {
  readonly view: RepositoryView;
  readonly adapter: RepositoryAdapter;
  readonly schemas: readonly Schema[];
  readonly metadataPrefixes: readonly string[];
}

/** Use cases of interface §4.3 with DECISIONS.md §5–6: curators see and edit only their views. */
export class RepositoryViewService {
  private readonly adapters = new LRUCache<string, RepositoryAdapter>({ max: 64 });
  private readonly observers: RepositoryViewObserver[] = [];

  constructor(
    private readonly store: RepositoryViewStore,
    private readonly cipher: PasswordCipher,
    private readonly deps: RepositoryViewDependencies,
  ) {}

  async list(caller: Principal): Promise<RepositoryView[]> {
    const views = await this.store.list();
    return caller.role === 'ROLE_ADMIN'
      ? views
      : views.filter((view) => view.curatorIds.includes(caller.userId));
  }

  async get(id: number, caller: Principal): Promise<RepositoryView> {
    const view = await this.findForCaller(id, caller);
    if (view === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, id));
    return view;
  }

  /** Adds an observer of created and changed views (app.ts, once what observes exists). */
  observe(observer: RepositoryViewObserver): void {
    this.observers.push(observer);
  }

  async create(body: Body, caller?: Principal): Promise<RepositoryView> {
    const collector = body.collector;
    const id = idOf(body);
    if (id.kind === 'valid')
      collector.business(
        'CREATE',
        (await this.store.findById(id.id)) ? msg.idExists(ENTITY, id.id) : msg.idOnCreate(ENTITY),
      );
    const input = parseRepositoryView(body, body.get('type'), body.get('name'));
    await this.checkName(body, 'CREATE', undefined, collector);
    if (input !== undefined) await this.checkReferences(input, collector);
    if (input === undefined || !collector.isValid) throw new ValidationFailedError(collector.results());
    const password = input.password.kind === 'set' ? this.cipher.encrypt(input.password.value) : null;
    let created: RepositoryView;
    try {
      const describe = await viewCreated(this.deps, password !== null);
      created = await this.store.insert(record(input, undefined), password, describe);
    } catch (error) {
      throw nameRace(error, 'CREATE', input.name);
    }
    await this.announce('CREATE', created);
    await this.tell((observer) => observer.created?.(created, caller));
    return created;
  }

  async update(body: Body, caller: Principal): Promise<RepositoryView> {
    const collector = body.collector;
    const id = idOf(body);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(ENTITY));
    // Permission before validation: a curator learns nothing (names, ids) about views they do not curate.
    const existing = id.kind === 'valid' ? await this.findForCaller(id.id, caller) : undefined;
    const input = parseRepositoryView(body, body.get('type'), body.get('name'));
    // Interface §7 rule 2, exactly.
    if (id.kind === 'valid' && existing === undefined)
      collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    if (existing !== undefined) await this.checkName(body, 'UPDATE', existing, collector);
    if (existing !== undefined && input !== undefined) {
      await this.checkReferences(input, collector);
      if (caller.role !== 'ROLE_ADMIN') {
        const curatorsChange =
          input.curatorIds !== undefined && !sameIds(input.curatorIds, existing.curatorIds);
        if (curatorsChange)
          collector.business('UPDATE', "Only an administrator may change a repository view's curators");
        // Where the stored password is sent is an administrator's decision (issue 8, finding 1).
        if (
          input.type !== existing.type ||
          input.rootUri !== existing.rootUri ||
          input.username !== existing.username
        )
          collector.business('UPDATE', ORIGIN_FIELDS_ADMIN_ONLY);
      }
    }
    if (existing === undefined || input === undefined || !collector.isValid)
      throw new ValidationFailedError(collector.results());
    const password: PasswordColumn =
      input.password.kind === 'set'
        ? this.cipher.encrypt(input.password.value)
        : input.password.kind === 'clear' || !sameOrigin(input.rootUri, existing.rootUri)
          ? // A stored password never follows the view to another origin unless sent again.
            null
          : undefined;
    const next = record(input, existing);
    // The detected dialect belongs to the configuration it was found for (issue 11).
    const keepDetected =
      next.type === existing.type &&
      next.rootUri === existing.rootUri &&
      next.username === existing.username &&
      next.dialect === existing.dialect &&
      (password === undefined || (password === null && !existing.hasPassword));
    let updated: RepositoryView | undefined;
    try {
      const describe = await viewUpdated(this.deps, existing, password);
      updated = await this.store.update(existing.id, next, password, keepDetected, describe);
    } catch (error) {
      throw nameRace(error, 'UPDATE', input.name);
    }
    if (updated === undefined) throw invalid('UPDATE', msg.doesNotExist(ENTITY, existing.id));
    await this.announce('UPDATE', updated);
    const changed = updated;
    await this.tell((observer) => observer.updated?.(changed, existing));
    return updated;
  }

  async delete(body: CheckedBody<{ id?: number | null }>): Promise<void> {
    const id = deleteId(body, ENTITY);
    // Read first: its curators hear of the deletion.
    const existing = await this.store.findById(id);
    if (existing === undefined || !(await this.store.delete(id, viewDeleted(existing))))
      throw invalid('DELETE', msg.doesNotExist(ENTITY, id));
    await this.announce('DELETE', existing);
  }

  /** Names of the views using a schema, for the schema capability's deletion rule. */
  namesUsingSchema(schemaId: number): Promise<string[]> {
    return this.store.namesUsingSchema(schemaId);
  }

  /** The lower-case repository type of a view, for APPLICATION_TYPE_OP; undefined when unknown. */
  async typeOf(viewId: number): Promise<string | undefined> {
    return (await this.store.findById(viewId))?.type.toLowerCase();
  }

  /**
   * Opens a view for the context endpoints: the `{type}` segment must name the view's type, and the
   * caller must be an ADMIN or one of its curators.
   */
  async open(type: RepositoryKind, id: number, caller: Principal): Promise<OpenedView> {
    const view = await this.findForCaller(id, caller);
    if (view === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, id));
    if (view.type !== type)
      throw new BadRequestError(`Repository view ${view.id} is of type ${view.type}, not ${type}`);
    const all = await this.deps.schemas();
    // In the view's own order: it decides the order of the query help's PREFIX lines.
    const schemas = view.schemaIds.flatMap((id) => all.filter((schema) => schema.id === id));
    const encrypted = await this.store.findEncryptedPassword(view.id);
    const settings = {
      type: view.type,
      rootUri: view.rootUri,
      username: view.username,
      dialect: view.dialect,
    };
    // One adapter per view configuration, reused across requests: it remembers where each resource's
    // triples are PATCHed, which saves an upstream HEAD per write. A changed view gets a new key. The
    // key holds the stored ciphertext, not the password: a new password is a new ciphertext (random
    // IV), and the password is decrypted only for a new adapter, which keeps it as it did before.
    const key = createHash('sha256')
      .update(JSON.stringify([view.id, settings, encrypted ?? null]))
      .digest('hex');
    let adapter = this.adapters.get(key);
    if (adapter === undefined) {
      adapter = this.deps.createAdapter({
        ...settings,
        viewId: view.id,
        password: this.decrypt(encrypted),
        ...(view.dialect === null ? { onDetected: this.detectionRecorder(view, encrypted ?? null) } : {}),
      });
      this.adapters.set(key, adapter);
    }
    return { view, adapter, schemas, metadataPrefixes: [...new Set(schemas.flatMap(metadataPrefixesOf))] };
  }

  /**
   * Stores what the adapter's detection found as the view's `detectedDialect`, for the configuration it
   * was opened with. Fire and forget: the adapter tells it in the middle of a request, which must not
   * fail (or wait) because the note could not be written.
   */
  private detectionRecorder(view: RepositoryView, passwordEncrypted: string | null) {
    return (found: DetectedDialect): void => {
      // Already known (e.g. detected again after a restart): no write, so no cache moves.
      if (view.detectedDialect === found) return;
      const configuration = { ...view, passwordEncrypted };
      this.store.recordDetected(view.id, configuration, found).catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        this.deps.warn?.(`Repository view ${view.id}: the detected dialect ${found} was not stored: ${why}`);
      });
    };
  }

  /** The adapter for a possibly unsaved view, for verification; a saved view's password fills a null one. */
  async adapterForVerification(
    type: RepositoryKind,
    body: CheckedBody<VerificationBody>,
  ): Promise<RepositoryAdapter> {
    const id = idOf(body);
    const name = body.passed('name') ? (body.get('name') ?? 'unsaved view') : undefined;
    const input = parseRepositoryView(body, type, name);
    if (input === undefined || !body.collector.isValid)
      throw new ValidationFailedError(body.collector.results());
    let password = input.password.kind === 'set' ? input.password.value : null;
    if (input.password.kind === 'keep' && id.kind === 'valid') {
      // The saved password is only sent to the saved view's own origin (issue 8, finding 1).
      const saved = await this.store.findById(id.id);
      if (saved !== undefined && sameOrigin(saved.rootUri, input.rootUri))
        password = this.decrypt(await this.store.findEncryptedPassword(id.id));
    }
    return this.deps.createAdapter({
      type,
      rootUri: input.rootUri,
      username: input.username,
      password,
      // The body's own dialect (absent = detect); what verification detects is not stored.
      dialect: input.dialect ?? null,
    });
  }

  /** JSON of views (interface field order), with full schemas and curators and the derived prefixes. */
  async present(views: readonly RepositoryView[]): Promise<Record<string, unknown>[]> {
    const [schemas, users] = await Promise.all([this.deps.schemas(), this.deps.users()]);
    return views.map((view) => {
      const own = view.schemaIds.flatMap((id) => schemas.filter((schema) => schema.id === id));
      return {
        id: view.id,
        type: view.type,
        name: view.name,
        rootUri: view.rootUri,
        username: view.username,
        password: null,
        schemas: own.map(toSchemaJson),
        curators: view.curatorIds.flatMap((id) => users.filter((user) => user.id === id)).map(toUserJson),
        metadataPrefixes: [...new Set(own.flatMap(metadataPrefixesOf))],
        dialect: view.dialect,
        detectedDialect: view.detectedDialect,
      };
    });
  }

  /**
   * Publishes a change with the view as the API answers it. Presenting reads the schemas and users
   * (kept in memory while unchanged); should that fail, the event goes out without its payload rather
   * than failing a change already made.
   */
  private async announce(action: EventAction, view: RepositoryView): Promise<void> {
    const json =
      action === 'DELETE'
        ? undefined
        : await this.present([view]).then(
            ([presented]) => presented,
            () => undefined,
          );
    (this.deps.events ?? NO_EVENTS).publish(repositoryViewEvent(action, view, json));
  }

  /** Tells every observer, one after the other; one that fails is told to `warn`, the others still are. */
  private async tell(call: (observer: RepositoryViewObserver) => Promise<void> | void): Promise<void> {
    for (const observer of this.observers) {
      try {
        await call(observer);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        this.deps.warn?.(`A repository view observer failed: ${why}`);
      }
    }
  }

  /** Names are unique; checked even when other input fails, so all problems are reported together. */
  private async checkName(
    body: Body,
    operation: BusinessOperation,
    existing: RepositoryView | undefined,
    collector: ValidationCollector,
  ): Promise<void> {
    const name = body.get('name');
    if (name === undefined) return;
    const holder = await this.store.findIdByName(name);
    if (holder !== undefined && holder !== existing?.id)
      collector.business(operation, msg.valueExists(ENTITY, 'name', name));
  }

  private async checkReferences(input: RepositoryViewInput, collector: ValidationCollector): Promise<void> {
    if (input.schemaIds !== undefined) {
      const known = new Set((await this.deps.schemas()).map((schema) => schema.id));
      for (const id of input.schemaIds.filter((schemaId) => !known.has(schemaId)))
        collector.add('schemas', 'exists', msg.doesNotExist('Schema', id));
    }
    if (input.curatorIds !== undefined) {
      const known = new Set((await this.deps.users()).map((user) => user.id));
      for (const id of input.curatorIds.filter((userId) => !known.has(userId)))
        collector.add('curators', 'exists', msg.doesNotExist('User', id));
    }
  }

  /**
   * The view with this id as the caller may see it: undefined when it does not exist (administrators
   * only), ForbiddenError when the caller does not curate it. To anyone else an unknown id looks like a
   * view they do not curate, so ids cannot be probed.
   */
  private async findForCaller(id: number, caller: Principal): Promise<RepositoryView | undefined> {
    const view = await this.store.findById(id);
    if (caller.role !== 'ROLE_ADMIN' && view?.curatorIds.includes(caller.userId) !== true)
      throw new ForbiddenError(`You are not a curator of repository view ${id}`);
    return view;
  }

  private decrypt(encrypted: string | null | undefined): string | null {
    if (encrypted === null || encrypted === undefined) return null;
    try {
      return this.cipher.decrypt(encrypted);
    } catch {
      throw new BadRequestError(
        'The stored repository password cannot be read (was SCRIPTORIUM_SECRET changed?); set the password again',
      );
    }
  }
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

const ORIGIN_FIELDS_ADMIN_ONLY =
  "Only an administrator may change a repository view's type, rootUri or username";

/** Same scheme, host and port: where HTTP Basic credentials may go. */
function sameOrigin(a: string, b: string): boolean {
  return new URL(a).origin === new URL(b).origin;
}

function nameRace(error: unknown, operation: BusinessOperation, name: string): unknown {
  return isUniqueViolation(error) ? invalid(operation, msg.valueExists(ENTITY, 'name', name)) : error;
}
