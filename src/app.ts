import { workbenchRoutes } from './workbench/workbench.routes.js';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config/config.js';
import { connectDatabase } from './db/connect.js';
import { dataVersionOf, type DataVersion } from './db/data-version.js';
import { migrateToLatest } from './db/migrations/migrate.js';
import { authRoutes } from './auth/auth.routes.js';
import { startAttemptPurge } from './auth/attempt-purge.js';
import { AuthService, DEFAULT_AUTH_SETTINGS } from './auth/auth.service.js';
import { LoginAttemptStore, SessionStore } from './auth/session.store.js';
import { TokenAuthorizer } from './auth/token-authorizer.js';
import { createCurationJobs } from './curation-jobs/curation-jobs.js';
import { AudienceCheck } from './events/event-audience.js';
import { DEFAULT_EVENT_STREAM_SETTINGS, type EventStreamSettings } from './events/event-stream.js';
import { EventTicketStore } from './events/event-ticket.store.js';
import { eventRoutes, TicketAuthorizer } from './events/events.routes.js';
import { createServiceEvents } from './events/service-events.js';
import { healthRoutes } from './health/health.routes.js';
import { createHttpServer } from './http/server.js';
import { internalMetadataRoutes } from './internal-metadata/internal-metadata.routes.js';
import { InternalMetadataService } from './internal-metadata/internal-metadata.service.js';
import { InternalMetadataStore } from './internal-metadata/internal-metadata.store.js';
import { operatorApplyRoutes } from './operators/operator-apply.routes.js';
import { OperatorApplyService } from './operators/operator-apply.service.js';
import { operatorRoutes } from './operators/operator.routes.js';
import { OperatorService } from './operators/operator.service.js';
import { OperatorStore } from './operators/operator.store.js';
import { embeddedRepositoryOf } from './embedded-repository/embedded-repository.js';
import { embeddedRepositoryRoutes } from './embedded-repository/repository.routes.js';
import { prepareStorage } from './embedded-repository/storage-startup.js';
import { startTransactionReaper } from './embedded-repository/transaction-reaper.js';
import { AgentPool } from './repository-adapters/agent-pool.js';
import { createAdapter } from './repository-adapters/create-adapter.js';
import { InProcessRepository } from './repository-adapters/in-process-repository.js';
import { contextRoutes } from './repository-view-context/context.routes.js';
import { ContextService } from './repository-view-context/context.service.js';
import { ensureDefaultView } from './repository-views/default-view.js';
import { PasswordCipher } from './repository-views/password-cipher.js';
import { repositoryViewRoutes } from './repository-views/repository-view.routes.js';
import { RepositoryViewService } from './repository-views/repository-view.service.js';
import { RepositoryViewStore } from './repository-views/repository-view.store.js';
import { verificationRoutes } from './repository-views/verification.routes.js';
import { resolveSecret } from './config/secret.js';
import { createSearchIndexStore } from './search/index/search-index.store.js';
import { SearchJobIndexing } from './search/indexing/job-indexing.js';
import { newViewIndexing } from './search/indexing/new-view-indexing.js';
import { IndexWriteUpkeep } from './search/indexing/write-upkeep.js';
import { searchIndexRoutes } from './search/search-index.routes.js';
import { SearchIndexService } from './search/search-index.service.js';
import { SearchViewStore } from './search/search-view.store.js';
import { parseRoot } from './repository-adapters/uri-confinement.js';
import { EmbeddedFeed } from './search/indexing/embedded-feed.js';
import { inProcessBase } from './search/indexing/embedded-views.js';
import { PropertyLookup } from './schemas/property-lookup.js';
import { schemaRoutes } from './schemas/schema.routes.js';
import { searchRoutes } from './search/search.routes.js';
import { SearchService } from './search/search.service.js';
import { spreadsheetExportRoutes } from './spreadsheets/export/spreadsheet-export.routes.js';
import { SchemaService } from './schemas/schema.service.js';
import { SchemaStore } from './schemas/schema.store.js';
import { VocabularyFetcher } from './schemas/vocabulary-fetcher.js';
import { ensureInitialAdmin } from './users/initial-admin.js';
import { userRoutes } from './users/user.routes.js';
import { UserService } from './users/user.service.js';
import { UserStore } from './users/user.store.js';
import { AuditStore } from './audit/audit.store.js';
import { ActorRelay } from './audit/audit-actor.js';
import { auditHttp } from './audit/audit-http.routes.js';
import { startParts, stopParts, type AppPart } from './http/app-part.js';
import { createSchedules } from './schedules/schedules-http.routes.js';
import { createNotifications } from './notifications/notification-part.routes.js';
import { exportPart } from './exports/export-http.routes.js';
import { copyPart, type CopyPartDependencies } from './copies/copy-part.routes.js';
import { metering, observeRequests, operationsPart } from './operations/operations-part.routes.js';

export interface AppOptions {
  readonly logger?: FastifyServerOptions['logger'];
  /** Called once per SQL statement, with its SQL (tests count queries). */
  readonly onQuery?: (sql: string) => void;
  /** Handed the database's change signal (tests wait on it for another instance's writes). */
  readonly onDataVersion?: (version: DataVersion) => void;
  /** The event streams' settings (tests shorten the keep-alive). */
  readonly events?: Partial<EventStreamSettings>;
  /** COPY jobs' engine in place of src/copies/' own (tests' stand-ins). */
  readonly copies?: CopyPartDependencies['engine'];
}

/**
 * The composition root: opens the database, runs migrations, builds stores and services with plain
 * constructors and hands them to the HTTP server. Returns the app without listening (main.ts listens,
 * tests use inject()).
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  // Until the HTTP server (and its logger) exists, a lost change feed has nobody to tell.
  let warn: (message: string) => void = () => undefined;
  const { db, dialect, listening } = connectDatabase(config.database, {
    onQuery: options.onQuery,
    onTrouble: (message) => {
      warn(message);
    },
  });
  options.onDataVersion?.(dataVersionOf(db));
  try {
    await migrateToLatest(db, dialect);
    // PostgreSQL: start with the change feed listening, so the caches work from the first request.
    await listening;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // Every change made through the service is announced on this bus (DECISIONS.md §10).
  const events = createServiceEvents(config.database, db, (message) => {
    warn(message);
  });
  await events.start();
  // The audit ledger (DECISIONS.md §14): every change through the service, hash-chained.
  const audit = new AuditStore(db, dialect);
  // Hands the actor of a write through a view to this process's own /rest (audit-actor.ts).
  const relay = new ActorRelay();
  const internalMetadata = new InternalMetadataService(new InternalMetadataStore(db, audit));
  const operatorStore = new OperatorStore(db, audit);
  const operators = new OperatorService(operatorStore);
  const viewStore = new RepositoryViewStore(db, audit);
  const schemas = new SchemaService(
    new SchemaStore(db, audit),
    (schemaId) => viewStore.namesUsingSchema(schemaId),
    new PropertyLookup(new VocabularyFetcher({ allowedHosts: config.vocabularyFetchAllowedHosts })),
    events.bus,
  );
  const userStore = new UserStore(db, audit);
  const auth = new AuthService(
    userStore,
    new SessionStore(db),
    new LoginAttemptStore(db),
    { ...DEFAULT_AUTH_SETTINGS, tokenTtlMs: config.tokenTtlMinutes * 60_000 },
    Date.now,
    audit,
  );
  const users = new UserService(userStore, (userId) => auth.revokeAll(userId), events.bus);
  const tickets = new EventTicketStore(db);
  // GET /events also takes a one-time ticket (EventSource sends no headers); GET /metrics, its token (§17).
  const { authorizer, metrics } = metering(config, new TicketAuthorizer(new TokenAuthorizer(auth), tickets));
  const cipher = new PasswordCipher(resolveSecret(config));
  const viewName = async (id: number) => (await viewStore.findById(id))?.name;
  // The connections of every repository adapter; closed with the app.
  const agents = new AgentPool();
  // Views on this process's own /rest are answered in process, through the same /rest plugin (issue 10).
  const local = config.embeddedRepository
    ? new InProcessRepository({ publicUrl: config.publicUrl, mount: '/rest/', relay })
    : undefined;
  const views = new RepositoryViewService(viewStore, cipher, {
    schemas: () => schemas.list(),
    users: () => users.list(),
    createAdapter: (view) => createAdapter(view, { agents, local, onAnswer: metrics.upstream(view.viewId) }),
    warn: (message) => {
      warn(message);
    },
    events: events.bus,
  });
  // The search index (DECISIONS.md §12) and what it knows of each view; it also names a context's children
  // and ancestors. External views are indexed by INDEX jobs and follow the service's own writes through the
  // upkeep (in this process only).
  const searchIndex = createSearchIndexStore(db, dialect);
  const searchViews = new SearchViewStore(db);
  const embedded = (rootUri: string): boolean => {
    try {
      return local?.transportFor(parseRoot(rootUri)) !== undefined;
    } catch {
      return false;
    }
  };
  const upkeep = new IndexWriteUpkeep(
    searchIndex,
    searchViews,
    (message) => {
      warn(message);
    },
    embedded,
  );
  const apply = new OperatorApplyService(
    operatorStore,
    { kept: () => internalMetadata.keptRequiredFields(), read: () => internalMetadata.requiredFields() },
    (viewId) => views.typeOf(viewId),
  );
  // Renders of views answered in process are kept until the next write to the database (issue 10).
  const context = new ContextService(views, searchIndex, {
    dataVersion: dataVersionOf(db),
    events: events.bus,
    renderCache: { maxBytes: config.renderCacheMiB * 1024 * 1024 },
    upkeep,
    audit,
  });
  // Search (issue 28, DECISIONS.md §12): the view's index, searched by GET …/search and by QUERY/MEMBERS jobs.
  const search = new SearchService({
    index: searchIndex,
    // When the view's index was last brought up to date (a whole-view INDEX job, or the feed's drained queue).
    indexedAt: async (viewId) => (await searchViews.state(viewId))?.indexedAt ?? null,
    viewOf: async (viewId) => {
      const view = await viewStore.findById(viewId);
      if (view === undefined) return undefined;
      const all = await schemas.list();
      return {
        rootUri: view.rootUri,
        schemas: view.schemaIds.flatMap((id) => all.filter((schema) => schema.id === id)),
      };
    },
    regex: { maxValues: config.searchRegexMaxValues, maxMillis: config.searchRegexMaxMillis },
  });
  // Notifications (DECISIONS.md §15): told of jobs' ends and a broken audit chain; an AppPart (below).
  const notifications = createNotifications({
    db,
    config,
    cipher,
    viewName,
    warn: (m) => {
      warn(m);
    },
  });
  // Curation jobs (issue 12): queued in this process on SQLite, through pg-boss (shared by every instance)
  // on PostgreSQL; recovery resumes those a restart or a dead instance interrupted.
  const jobs = createCurationJobs({
    db,
    config,
    views,
    operators: operatorStore,
    events: events.bus,
    audit,
    warn: (message) => {
      warn(message);
    },
    indexing: new SearchJobIndexing(searchIndex, searchViews),
    upkeep,
    // QUERY and MEMBERS scopes find their resources through search (DECISIONS.md §12).
    scopes: search,
    onEnded: (job) => notifications.jobEnded(job),
  });
  const startIndexing = (view: { id: number; rootUri: string }, createdBy: number) =>
    jobs.service.startIndexing(view, createdBy);
  if (config.searchIndexNewViews)
    views.observe(
      newViewIndexing({
        index: searchIndex,
        startIndexing,
        embedded,
        warn: (message) => {
          warn(message);
        },
      }),
    );
  const searchIndexing = new SearchIndexService({
    views,
    index: searchIndex,
    indexed: searchViews,
    startIndexing,
    embedded,
  });
  // The embedded Fedora-compatible repository at /rest (LDP answers, HTTP Basic auth; issue 4).
  const repository = embeddedRepositoryOf(config, db, dialect, audit, relay, metrics.fixityFailed);
  const rest =
    repository === undefined
      ? undefined
      : embeddedRepositoryRoutes(
          repository,
          await prepareStorage(repository.store, repository.binaries, repository.credentials.username),
        );
  const dataVersion = dataVersionOf(db);
  const auditing = auditHttp({
    ledger: audit,
    views,
    context,
    curatorsOf: async (viewId) => (await viewStore.findById(viewId))?.curatorIds,
    hub: events.hub,
    changes: dialect === 'postgres' ? dataVersion : undefined,
    publicUrl: config.publicUrl,
    warn: (message) => {
      warn(message);
    },
    onChainBroken: (id) => notifications.chainBroken(id),
  });
  // Capabilities assembled in their own folders (schedules, notifications, …): routes, then start and stop.
  const parts: AppPart[] = [
    notifications,
    createSchedules({ db, config, audit, events, jobs, views, viewStore, userStore, warn: () => warn }),
    exportPart({ db, config, jobs, ledger: audit }),
    copyPart({ db, jobs, engine: options.copies }),
    operationsPart({ db, metrics, binaries: repository?.binaries, jobs, hub: events.hub }),
  ];
  const app = await createHttpServer({
    config,
    authorizer,
    logger: options.logger,
    // Each API request's access check waits until other instances' writes up to its start are seen.
    freshness: dataVersion.whenFresh?.bind(dataVersion),
    routes: [
      healthRoutes(db),
      authRoutes(auth, { perAddress: config.loginRatePerAddress, global: config.loginRateGlobal }),
      userRoutes(users, auth, config.bodyLimit),
      internalMetadataRoutes(internalMetadata),
      operatorRoutes(operators),
      operatorApplyRoutes(apply),
      schemaRoutes(schemas),
      repositoryViewRoutes(views),
      verificationRoutes(views),
      contextRoutes(context, { maxFileBytes: config.repositoryMaxBinaryBytes }),
      searchRoutes(views, search),
      spreadsheetExportRoutes(views, search, {
        concurrency: config.jobConcurrency,
        maxResources: config.exportMaxResources,
      }),
      jobs.routes,
      searchIndexRoutes(searchIndexing),
      // The audit trail (issue 30): GET /audit, /audit/verify, /audit/premis, POST /audit/:id/revert.
      ...auditing.routes,
      ...parts.flatMap((part) => part.routes),
      eventRoutes({
        hub: events.hub,
        audience: new AudienceCheck(async (viewId) => (await viewStore.findById(viewId))?.curatorIds),
        tickets,
        settings: { ...DEFAULT_EVENT_STREAM_SETTINGS, ...options.events },
      }),
      ...(rest === undefined ? [] : [rest.routes]),
      workbenchRoutes(config.uiDir),
    ],
  });
  local?.attach(app);
  observeRequests(app, metrics);
  warn = (message) => {
    app.log.warn(message);
  };
  app.addHook('onRequest', (_request, _reply, done) => {
    dataVersion.requestStarted?.();
    done();
  });
  startAttemptPurge(app, auth);
  const reaper =
    repository === undefined || rest === undefined
      ? undefined
      : startTransactionReaper(repository.store, rest.release, app.log);
  // The embedded repository's writes reach the index of its views within 2 s (SCRIPTORIUM_SEARCH_FEED).
  const feed =
    repository === undefined || !config.searchFeed
      ? undefined
      : new EmbeddedFeed({
          db,
          dialect,
          index: searchIndex,
          dataVersion,
          baseOf: inProcessBase(local),
          log: app.log,
        });
  // Which views are on the embedded repository changes with the views, and once the server listens (its
  // listening address is then known to be this process's).
  const viewChanges = feed?.followViews(events.hub);
  if (feed !== undefined)
    app.addHook('onListen', (done) => {
      feed.viewsChanged();
      done();
    });
  // Every agent, timer and thread the app owns stops here, the database last.
  app.addHook('onClose', async () => {
    await stopParts(parts);
    // Jobs first: a running one still talks to the repository and the database.
    await jobs.stop();
    // What the service wrote is told to the index until here; the rest waits for the next INDEX job.
    await upkeep.close();
    viewChanges?.unsubscribe();
    await feed?.stop();
    local?.detach();
    await reaper?.stop();
    await repository?.updates.close();
    await agents.close();
    await auditing.tail.stop();
    await events.close();
    await db.destroy();
  });
  try {
    await ensureInitialAdmin(userStore, config, app.log);
    if (repository !== undefined) {
      const credentials = repository.credentials;
      const seeded = (await schemas.list()).filter((schema) =>
        ['dc', 'dcterms'].includes(schema.abbreviation),
      );
      await ensureDefaultView(viewStore, cipher, {
        rootUri: `${config.publicUrl}/rest/`,
        username: credentials.username,
        password: credentials.password,
        schemaIds: seeded.map((schema) => schema.id),
      });
    }
    await jobs.start();
    await auditing.tail.start();
    await startParts(parts);
    // After the default view exists: its first indexing starts at once.
    feed?.start();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
