import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How an upstream request ended: its status class, or `error` when no answer came. */
export type UpstreamOutcome = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'error';

/** What the gauges read when Prometheus scrapes (each one grouped query or an in-memory count). */
export interface ScrapeSources {
  /** Curation jobs by kind and state, as stored (every instance's jobs on PostgreSQL). */
  readonly jobCounts: () => Promise<readonly { kind: string; state: string; count: number }[]>;
  /** Repository writes queued for the search index and not yet indexed (`search_pending`). */
  readonly pendingIndexChanges: () => Promise<number>;
  /** Event-stream (SSE) clients connected to this instance. */
  readonly eventStreamClients: () => number;
}

const PREFIX = 'scriptorium_';

/**
 * The service's Prometheus series (DECISIONS.md §17), in a registry of the app's own (never prom-client's
 * global one), so several apps in one process (tests, two instances) do not count into each other. Label
 * values are only route patterns, methods, statuses, job kinds and states and view ids: never a URL, a
 * resource IRI, a user name or a token.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'route' | 'method' | 'status'>;
  private readonly httpDuration: Histogram<'route' | 'method' | 'status'>;
  private readonly upstreamRequests: Counter<'view' | 'outcome'>;
  private readonly jobsFinished: Counter<'kind' | 'state'>;
  private readonly jobResources: Counter<'kind'>;
  private readonly fixityFailures: Counter<'source'>;
  private sources: ScrapeSources | undefined;

  constructor() {
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time to answer an HTTP request, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.upstreamRequests = new Counter({
      name: `${PREFIX}upstream_requests_total`,
      help: 'Requests the repository adapters sent to Fedora/LDP servers, by view id and status class',
      labelNames: ['view', 'outcome'],
      registers,
    });
    this.jobsFinished = new Counter({
      name: `${PREFIX}jobs_finished_total`,
      help: 'Curation jobs that came to rest in this instance, by kind and state',
      labelNames: ['kind', 'state'],
      registers,
    });
    this.jobResources = new Counter({
      name: `${PREFIX}job_resources_processed_total`,
      help: 'Resources curation jobs processed in this instance, by kind',
      labelNames: ['kind'],
      registers,
    });
    this.fixityFailures = new Counter({
      name: `${PREFIX}fixity_failures_total`,
      help: 'Failed fixity checks: of the embedded repository (fcr:fixity) and of FIXITY job items',
      labelNames: ['source'],
      registers,
    });
    // Both sources present from the start, so an alert on an increase sees the first failure.
    this.fixityFailures.inc({ source: 'repository' }, 0);
    this.fixityFailures.inc({ source: 'job' }, 0);
    const sources = () => this.sources;
    new Gauge({
      name: `${PREFIX}jobs`,
      help: 'Curation jobs by kind and state (read from the database at scrape time)',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        const rows = (await sources()?.jobCounts()) ?? [];
        this.reset();
        for (const row of rows) this.set({ kind: row.kind, state: row.state }, row.count);
      },
    });
    new Gauge({
      name: `${PREFIX}search_index_pending_changes`,
      help: 'Repository writes waiting to be indexed for search (the index lag, in changes)',
      registers,
      async collect() {
        this.set((await sources()?.pendingIndexChanges()) ?? 0);
      },
    });
    new Gauge({
      name: `${PREFIX}event_stream_clients`,
      help: 'Event-stream (SSE) clients connected to this instance',
      registers,
      collect() {
        this.set(sources()?.eventStreamClients() ?? 0);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
  }

  /** Where the gauges read at scrape time; set once the app has built them. */
  readFrom(sources: ScrapeSources): void {
    this.sources = sources;
  }

  /** One answered HTTP request; `route` is the pattern (`/repository-view/:id`), never the URL. */
  requestAnswered(route: string, method: string, status: number, seconds: number): void {
    const labels = { route, method, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /**
   * What counts the requests an adapter sends for view `viewId` (undefined: a view not saved yet, being
   * verified): told each answer's status, or undefined when none came.
   */
  upstream(viewId: number | undefined): (status: number | undefined) => void {
    const view = viewId === undefined ? 'unsaved' : String(viewId);
    return (status) => {
      const outcome: UpstreamOutcome =
        status === undefined || status < 100 || status > 599
          ? 'error'
          : (`${String(Math.floor(status / 100))}xx` as UpstreamOutcome);
      this.upstreamRequests.inc({ view, outcome });
    };
  }

  /** A job came to rest (stored by this instance's runner). */
  jobEnded(kind: string, state: string): void {
    this.jobsFinished.inc({ kind, state });
  }

  /** A job's recorded progress moved on: `processed` more resources, `failed` of them failed. */
  jobProgressed(kind: string, processed: number, failed: number): void {
    if (processed > 0) this.jobResources.inc({ kind }, processed);
    if (kind === 'FIXITY' && failed > 0) this.fixityFailures.inc({ source: 'job' }, failed);
  }

  /** A fixity check of the embedded repository found a binary's size or digest wrong (a bound function). */
  readonly fixityFailed = (): void => {
    this.fixityFailures.inc({ source: 'repository' });
  };

  /** The exposition text (Prometheus text format 0.0.4). */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
