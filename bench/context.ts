import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChildServer, type ChildServer } from './child-server.js';
import { startCountingProxy, type CountingProxy, type ProxiedRequest } from './context-proxy.js';
import {
  LATENCY_GOAL,
  THROUGHPUT_GOAL,
  renderCountTable,
  renderSummaryTable,
  summarizeComparison,
  writeContextReport,
  type Comparison,
  type ContextReport,
  type OperationCount,
  type OpFigures,
} from './context-report.js';
import { figures, runProblems } from './report.js';
import { signIn, SUCCESS_PREFIX } from './scenarios.js';

/**
 * `npm run bench:context` (not part of `npm run bench`): the repository view context through the
 * service against the bare upstream requests the operation needs, on the same repository in the same
 * run — the embedded repository (FEDORA view on the service's own /rest/) and Community Solid Server
 * 7.2 (LDP view, memory backend, started here). Scenarios: rendering a container with 20 metadata
 * triples and 100 children, and adding a metadata triple (a new literal every time). Also counts the
 * upstream requests of one operation through a counting proxy. Settings: BENCH_DURATION (s per run,
 * default 10), BENCH_RUNS (default 3), BENCH_WARMUP (s, default 2). Writes bench/results/context.{md,json}.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'bench', 'results');
const CONNECTIONS = 10;
const CHILDREN = 100;
/** Containers the add scenario writes to in one run (round robin), each shaped like the render one. */
const ADD_TARGETS = 10;
const COUNT_REPEATS = 3;
const SETUP_CONCURRENCY = 10;

const DC = 'http://purl.org/dc/elements/1.1/';
const DCTERMS = 'http://purl.org/dc/terms/';
const LDP_PREFER_CONTAINMENT = 'http://www.w3.org/ns/ldp#PreferContainment';
const PREFER_CONTAINMENT = `return=representation; include="${LDP_PREFER_CONTAINMENT}"`;
const RDF_ACCEPT =
  'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5';
/** The predicate of every added triple; its literals are `bench-add <n>` (service) / `bench-bare <n>`. */
const ADDED_PREDICATE = `${DC}description`;

/** 20 metadata triples: 15 Dublin Core elements and 5 DC terms, all in the view's metadata prefixes. */
const METADATA: { predicate: string; object: string }[] = [
  ...[
    'title',
    'creator',
    'subject',
    'description',
    'publisher',
    'contributor',
    'date',
    'type',
    'format',
    'identifier',
    'source',
    'language',
    'relation',
    'coverage',
    'rights',
  ].map((name, i) => ({
    predicate: `${DC}${name}`,
    object: name === 'title' ? '"Context benchmark container"' : `"${name} value ${i + 1}"`,
  })),
  ...['alternative', 'abstract', 'created', 'issued', 'extent'].map((name, i) => ({
    predicate: `${DCTERMS}${name}`,
    object: `"${name} value ${i + 16}"@en`,
  })),
];

function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return Number(raw);
}
const duration = envInt('BENCH_DURATION', 10, 1);
const runs = envInt('BENCH_RUNS', 3, 1);
const warmup = envInt('BENCH_WARMUP', 2, 0);

const children: ChildServer[] = [];
const proxies: CountingProxy[] = [];
let dataDir: string | undefined;

async function cleanUp(): Promise<void> {
  await Promise.all([...children.map((c) => c.stop()), ...proxies.map((p) => p.close())]);
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
}

process.once('SIGINT', () => {
  console.log('\ninterrupted: stopping the servers');
  void cleanUp().finally(() => process.exit(130));
});

// ---- the service's API ------------------------------------------------------------------------

interface Envelope {
  meta: { status: string; message: string };
  payload: Record<string, unknown>;
}

interface WireTriple {
  subject: string;
  predicate: string;
  object: string;
}

interface ContextJson {
  name: string | null;
  metadata: WireTriple[];
  properties: WireTriple[];
  children: { triple: WireTriple | null }[];
}

class Api {
  constructor(
    readonly url: string,
    readonly auth: Readonly<Record<string, string>>,
  ) {}

  async call(method: string, route: string, body?: unknown): Promise<Envelope> {
    const response = await fetch(this.url + route, {
      method,
      headers: body === undefined ? this.auth : { 'content-type': 'application/json', ...this.auth },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      throw new Error(`${method} ${route} → ${response.status} ${text.slice(0, 300)}`);
    }
    if (!response.ok || envelope.meta.status !== 'SUCCESS') {
      throw new Error(`${method} ${route} → ${response.status} ${text.slice(0, 500)}`);
    }
    return envelope;
  }

  async context(view: View, uri: string, suffix = '', method = 'GET', body?: unknown): Promise<ContextJson> {
    const route = `${view.prefix}${suffix}?contextUri=${encodeURIComponent(uri)}`;
    return (await this.call(method, route, body)).payload.RepositoryViewContext as ContextJson;
  }
}

const childUris = (context: ContextJson) =>
  context.children.flatMap((child) => (child.triple === null ? [] : [child.triple.object]));

/** Runs `tasks` with at most `limit` at a time. */
async function pool(tasks: (() => Promise<unknown>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++]!;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

// ---- repositories -----------------------------------------------------------------------------

interface View {
  readonly id: number;
  /** `/repository-view-context/<type>/<id>` */
  readonly prefix: string;
  /** The view's root, ending with `/`. */
  readonly root: string;
}

/** One bare upstream request, as autocannon sends it (path relative to the repository's origin). */
interface BareRequest {
  method: 'GET' | 'PATCH' | 'HEAD';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Repository {
  readonly key: 'embedded' | 'css';
  readonly label: string;
  readonly type: 'FEDORA' | 'LDP';
  readonly root: string;
  readonly origin: string;
  readonly username?: string;
  readonly password?: string;
  /** Authorization for bare requests (the view's Basic credentials), or none. */
  readonly headers: Record<string, string>;
  /** The bare requests that render needs, in the order the service sends them. */
  render(container: string): BareRequest[];
  /** The PATCH adding a triple. */
  patch(container: string, body: string): BareRequest;
  /** What the report says about the minimum of each operation. */
  readonly minimumNotes: { render: string; add: string };
}

const pathOf = (uri: string) => {
  const url = new URL(uri);
  return `${url.pathname}${url.search}`;
};

function embeddedRepository(serviceUrl: string, username: string, password: string): Repository {
  const headers = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  return {
    key: 'embedded',
    label: 'embedded (FEDORA view on /rest/)',
    type: 'FEDORA',
    root: `${serviceUrl}/rest/`,
    origin: serviceUrl,
    username,
    password,
    headers,
    render: (container) => [
      {
        method: 'GET',
        path: pathOf(container),
        headers: { ...headers, accept: 'text/turtle', prefer: PREFER_CONTAINMENT },
      },
      {
        method: 'GET',
        path: pathOf(`${container.replace(/\/$/, '')}/fcr:versions`),
        headers: { ...headers, accept: `${RDF_ACCEPT}, application/link-format;q=0.4` },
      },
    ],
    patch: (container, body) => ({
      method: 'PATCH',
      path: pathOf(container),
      headers: { ...headers, 'content-type': 'application/sparql-update' },
      body,
    }),
    minimumNotes: {
      render:
        'GET the container with ldp:contains (Prefer … PreferContainment) + GET its fcr:versions ' +
        '(the context lists versions; Fedora names them only in the TimeMap)',
      add:
        'PATCH (INSERT DATA) + the render pair, because the answer is the context after the change ' +
        '(the brief’s bare baseline is the PATCH alone: see the “PATCH only” row)',
    },
  };
}

function cssRepository(base: string): Repository {
  const root = base.endsWith('/') ? base : `${base}/`;
  return {
    key: 'css',
    label: 'Community Solid Server 7.2 (LDP view, memory backend)',
    type: 'LDP',
    root,
    origin: new URL(root).origin,
    headers: {},
    render: (container) => [{ method: 'GET', path: pathOf(container), headers: { accept: 'text/turtle' } }],
    patch: (container, body) => ({
      method: 'PATCH',
      path: pathOf(`${container}.meta`),
      headers: { 'content-type': 'application/sparql-update' },
      body,
    }),
    minimumNotes: {
      render:
        'GET the container: CSS puts the triples of its .meta description into the container’s own ' +
        'representation, so no GET of .meta is needed (checked: the 20 metadata triples come back)',
      add:
        'PATCH <container>.meta + GET the container for the answer (the brief’s bare baseline is the ' +
        'PATCH alone: see the “PATCH only” row)',
    },
  };
}

async function createView(api: Api, repo: Repository, name: string, root: string, schemaIds: number[]) {
  const created = await api.call('POST', '/repository-view', {
    type: repo.type,
    name,
    rootUri: root,
    username: repo.username ?? null,
    password: repo.password ?? null,
    schemas: schemaIds.map((id) => ({ id })),
  });
  const id = (created.payload.RepositoryView as { id: number }).id;
  const view: View = { id, prefix: `/repository-view-context/${repo.type}/${id}`, root };
  return view;
}

/**
 * Creates one container under `parent` through the API (POST …/children) and finds its URI: the one
 * child of the answered parent context that was not there before. Callers do not create children of
 * the same parent concurrently.
 */
async function createContainer(
  api: Api,
  view: View,
  parent: string,
  triples: readonly { predicate: string; object: string }[],
): Promise<string> {
  const before = new Set(childUris(await api.context(view, parent)));
  const after = await api.context(
    view,
    parent,
    '/children',
    'POST',
    triples.map((t) => ({ subject: parent, ...t })),
  );
  const created = childUris(after).filter((uri) => !before.has(uri));
  if (created.length !== 1) throw new Error(`expected one new child of ${parent}, found ${created.length}`);
  return created[0]!;
}

/** A container with the 20 metadata triples and 100 (empty) children, all through the API. */
async function createBenchContainer(api: Api, view: View, parent: string): Promise<string> {
  const container = await createContainer(api, view, parent, METADATA);
  await pool(
    Array.from({ length: CHILDREN }, () => () => api.context(view, container, '/children', 'POST', [])),
    SETUP_CONCURRENCY,
  );
  return container;
}

/** Checks a rendered context: the 20 metadata triples and the 100 children. */
function checkShape(context: ContextJson, what: string): string {
  const metadataPredicates = new Set(context.metadata.map((t) => `${t.predicate} ${t.object}`));
  const missing = METADATA.filter((t) => !metadataPredicates.has(`${t.predicate} ${t.object}`)).length;
  const childCount = context.children.length;
  if (missing > 0 || childCount !== CHILDREN) {
    throw new Error(
      `${what}: expected the ${METADATA.length} metadata triples and ${CHILDREN} children, ` +
        `got ${METADATA.length - missing} of them and ${childCount} children`,
    );
  }
  return (
    `${what}: ${context.metadata.length} metadata triples (the ${METADATA.length} posted` +
    `${context.metadata.length > METADATA.length ? ' + server-managed ones in a metadata namespace' : ''}), ` +
    `${context.properties.length} other properties, ${childCount} children`
  );
}

// ---- measuring --------------------------------------------------------------------------------

interface Side {
  readonly key: 'service' | 'bare' | 'patch';
  readonly label: string;
  readonly origin: string;
  /** One operation: these requests in order (the service: one request). */
  readonly requests: autocannon.Request[];
  readonly verifyBody?: (body: string | Buffer | undefined) => boolean;
}

interface Measured {
  figures: OpFigures;
  /** 2xx responses per request of the sequence. */
  okByIndex: number[];
  successes: number;
}

const isSuccess = (body: string | Buffer | undefined) =>
  typeof body === 'string' && body.startsWith(SUCCESS_PREFIX);

const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * One autocannon run. Operation latency is the sum of the request durations autocannon measures
 * (fractional milliseconds) over one pass through the sequence on one connection; operations/s is
 * completed sequences per second.
 */
async function measure(side: Side, seconds: number): Promise<Measured> {
  const n = side.requests.length;
  const latencies: number[] = [];
  const okByIndex = new Array<number>(n).fill(0);
  const result = await autocannon({
    url: side.origin,
    connections: CONNECTIONS,
    duration: seconds,
    requests: side.requests,
    ...(side.verifyBody === undefined ? {} : { verifyBody: side.verifyBody }),
    setupClient: (client) => {
      const state = { index: -1, sum: 0 };
      client.setRequests(
        side.requests.map((request, i) => ({
          ...request,
          onResponse: (status: number) => {
            state.index = i;
            if (status >= 200 && status < 300) okByIndex[i]!++;
          },
        })),
      );
      client.on('response', (_status: number, _bytes: number, responseTime: number) => {
        if (state.index === 0) state.sum = 0;
        state.sum += responseTime;
        if (state.index === n - 1) latencies.push(state.sum);
      });
    },
  });
  for (const child of children) {
    const exited = child.exited();
    if (exited !== undefined) throw new Error(`${child.name} ${exited} during ${side.label}`);
  }
  latencies.sort((a, b) => a - b);
  const requests = figures(result);
  const mean = latencies.reduce((sum, v) => sum + v, 0) / Math.max(1, latencies.length);
  return {
    figures: {
      opsPerSec: latencies.length / result.duration,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      meanMs: mean,
      ops: latencies.length,
      requests,
    },
    okByIndex,
    successes: requests.responses - requests.non2xx - requests.notSuccess,
  };
}

const describe = (f: OpFigures) =>
  `${f.opsPerSec.toFixed(0)} op/s, p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms` +
  (runProblems(f.requests) === '' ? '' : `  ⚠ ${runProblems(f.requests)}`);

function bareRequest(request: BareRequest): autocannon.Request {
  return {
    method: request.method,
    path: request.path,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  };
}

/** `GET <container> + GET <container>/fcr:versions`, with the PATCH first for the add operation. */
function bareLabel(repo: Repository, withPatch: boolean): string {
  const sample = 'http://x/c';
  const name = (r: BareRequest) =>
    `${r.method} ${r.path.endsWith('/fcr:versions') ? '<container>/fcr:versions' : r.path.endsWith('.meta') ? '<container>.meta' : '<container>'}`;
  const parts = [...(withPatch ? [repo.patch(sample, '')] : []), ...repo.render(sample)];
  return parts.map(name).join(' + ');
}

// ---- counting upstream requests ---------------------------------------------------------------

interface Expected {
  method: string;
  path: string;
}

/** The requests the proxy saw during `operation`, once the service has answered. */
async function countOnce(proxy: CountingProxy, operation: () => Promise<unknown>): Promise<ProxiedRequest[]> {
  proxy.reset();
  await operation();
  await new Promise((resolve) => setTimeout(resolve, 100)); // anything sent after the answer, too
  return [...proxy.log];
}

function countOperation(
  repo: Repository,
  operation: string,
  seen: ProxiedRequest[][],
  minimum: Expected[],
  note: string,
  container: string,
): OperationCount {
  const first = seen[0] ?? [];
  // Readable lines: the container's path as <container>, the adapter's RDF Accept list as <RDF>.
  const containerPath = pathOf(container).replace(/\/$/, '');
  const short = (text: string) =>
    text.split(containerPath).join('<container>').split(RDF_ACCEPT).join('<RDF>');
  const stable = seen.every((s) => s.length === first.length);
  const remaining = [...minimum];
  const extra: ProxiedRequest[] = [];
  for (const request of first) {
    const at = remaining.findIndex((m) => m.method === request.method && m.path === request.path);
    if (at >= 0) remaining.splice(at, 1);
    else extra.push(request);
  }
  return {
    repository: repo.label,
    operation,
    perOperation: seen.map((s) => s.length),
    stable,
    minimum: minimum.length,
    minimumNote: note,
    requests: first.map((r) =>
      short(`${r.method} ${r.path} → ${r.status}${r.note === '' ? '' : ` (${r.note})`}`),
    ),
    extra: extra.map((r) => short(`${r.method} ${r.path}`)),
    missing: remaining.map((r) => short(`${r.method} ${r.path}`)),
  };
}

// ---- one repository ---------------------------------------------------------------------------

interface RepositoryResult {
  comparisons: Comparison[];
  counts: OperationCount[];
  setup: string[];
}

async function benchRepository(api: Api, repo: Repository, schemaIds: number[]): Promise<RepositoryResult> {
  console.log(`\n== ${repo.label} at ${repo.root}`);
  const proxy = await startCountingProxy(repo.origin);
  proxies.push(proxy);
  const stamp = Date.now().toString(36);
  const view = await createView(api, repo, `Context bench ${repo.key} ${stamp}`, repo.root, schemaIds);
  const proxiedRoot = `${proxy.origin}${new URL(repo.root).pathname}`;
  const counted = await createView(
    api,
    repo,
    `Context bench ${repo.key} counted ${stamp}`,
    proxiedRoot,
    schemaIds,
  );
  const relative = (uri: string) => uri.slice(repo.root.length);
  const setup: string[] = [
    `${repo.label}: view ${view.id} on ${repo.root}; view ${counted.id} on the counting proxy ${proxiedRoot} ` +
      '(same repository, used only to count one operation at a time)',
  ];

  const started = performance.now();
  const home = await createContainer(api, view, repo.root, [
    { predicate: `${DC}title`, object: `"Context bench ${stamp}"` },
  ]);
  const container = await createBenchContainer(api, view, home);
  const made = ((performance.now() - started) / 1000).toFixed(1);
  setup.push(
    checkShape(await api.context(view, container), `render container ${container} (set up in ${made} s)`),
  );
  setup.push(
    checkShape(
      await api.context(counted, relative(container)),
      'the same container through the counting proxy',
    ),
  );
  setup.forEach((line) => {
    console.log(`   ${line}`);
  });

  // Counting: one operation at a time through the proxied view.
  const counts: OperationCount[] = [];
  const renderSeen: ProxiedRequest[][] = [];
  for (let i = 0; i < COUNT_REPEATS; i++) {
    renderSeen.push(await countOnce(proxy, () => api.context(counted, relative(container))));
  }
  const renderMinimum = repo.render(container).map((r) => ({ method: r.method, path: r.path }));
  counts.push(
    countOperation(repo, 'render context', renderSeen, renderMinimum, repo.minimumNotes.render, container),
  );

  // Add targets: a fresh set of containers shaped like the render one for every run of every side.
  let setNumber = 0;
  const newTargets = async (): Promise<string[]> => {
    const set = ++setNumber;
    const begun = performance.now();
    const targets: string[] = [];
    for (let i = 0; i < ADD_TARGETS; i++) {
      targets.push(await createContainer(api, view, home, METADATA));
    }
    await pool(
      targets.flatMap((target) =>
        Array.from({ length: CHILDREN }, () => () => api.context(view, target, '/children', 'POST', [])),
      ),
      SETUP_CONCURRENCY,
    );
    const seconds = ((performance.now() - begun) / 1000).toFixed(1);
    console.log(
      `   add targets set ${set}: ${ADD_TARGETS} containers × (${METADATA.length} triples, ${CHILDREN} children) in ${seconds} s`,
    );
    return targets;
  };

  let serviceN = 0;
  let bareN = 0;
  const countTargets = await newTargets();
  const addSeen: ProxiedRequest[][] = [];
  for (let i = 0; i < COUNT_REPEATS; i++) {
    const target = countTargets[0]!;
    addSeen.push(
      await countOnce(proxy, () =>
        api.context(counted, relative(target), '/metadata', 'POST', {
          subject: relative(target),
          predicate: ADDED_PREDICATE,
          object: `"bench-add ${++serviceN}"`,
        }),
      ),
    );
  }
  const addMinimum = [repo.patch(countTargets[0]!, ''), ...repo.render(countTargets[0]!)].map((r) => ({
    method: r.method,
    path: r.path,
  }));
  counts.push(
    countOperation(repo, 'add metadata triple', addSeen, addMinimum, repo.minimumNotes.add, countTargets[0]!),
  );
  for (const count of counts) {
    console.log(
      `   upstream requests per ${count.operation}: ${count.perOperation.join(', ')} (minimum ${count.minimum})` +
        (count.extra.length === 0 ? '' : `; beyond it: ${count.extra.join(', ')}`),
    );
  }

  // Sides.
  const serviceRender: Side = {
    key: 'service',
    label: `${repo.key} · render · service`,
    origin: api.url,
    requests: [
      {
        method: 'GET',
        path: `${view.prefix}?contextUri=${encodeURIComponent(container)}`,
        headers: api.auth,
      },
    ],
    verifyBody: isSuccess,
  };
  const bareRender: Side = {
    key: 'bare',
    label: `${repo.key} · render · bare`,
    origin: repo.origin,
    requests: repo.render(container).map(bareRequest),
  };
  const update = (target: string, literal: string) =>
    `INSERT DATA { <${target}> <${ADDED_PREDICATE}> "${literal}" . }`;
  /** Round robin over the targets; the first request of a sequence picks, the others follow it. */
  const serviceAdd = (targets: string[]): Side => ({
    key: 'service',
    label: `${repo.key} · add · service`,
    origin: api.url,
    requests: [
      {
        method: 'POST',
        path: '/',
        headers: { ...api.auth, 'content-type': 'application/json' },
        setupRequest: (request) => {
          const n = ++serviceN;
          const target = targets[n % targets.length]!;
          return {
            ...request,
            path: `${view.prefix}/metadata?contextUri=${encodeURIComponent(target)}`,
            body: JSON.stringify({ subject: target, predicate: ADDED_PREDICATE, object: `"bench-add ${n}"` }),
          };
        },
      },
    ],
    verifyBody: isSuccess,
  });
  const bareAdd = (targets: string[], withRender: boolean): Side => {
    const renders = repo.render(targets[0]!).map((_, index) => ({
      method: 'GET' as const,
      path: '/',
      setupRequest: (request: autocannon.Request, context: object) => {
        const target = (context as { target: string }).target;
        return { ...request, ...bareRequest(repo.render(target)[index]!) };
      },
    }));
    return {
      key: withRender ? 'bare' : 'patch',
      label: `${repo.key} · add · ${withRender ? 'bare' : 'PATCH only'}`,
      origin: repo.origin,
      requests: [
        {
          method: 'PATCH',
          path: '/',
          setupRequest: (request, context) => {
            const n = ++bareN;
            const target = targets[n % targets.length]!;
            (context as { target: string }).target = target;
            return { ...request, ...bareRequest(repo.patch(target, update(target, `bench-bare ${n}`))) };
          },
        },
        ...(withRender ? renders : []),
      ],
    };
  };

  /** Triples added to `targets` (literals starting with `prefix`), read back through the service. */
  const added = async (targets: string[], prefix: string) => {
    let total = 0;
    for (const target of targets) {
      const context = await api.context(view, target);
      total += context.metadata.filter(
        (t) => t.predicate === ADDED_PREDICATE && t.object.startsWith(`"${prefix} `),
      ).length;
    }
    return total;
  };

  const comparisons: Comparison[] = [];

  // 1. Render.
  {
    const comparison: Comparison = {
      repository: repo.label,
      operation: `render context (${METADATA.length} metadata triples, ${CHILDREN} children)`,
      baseline: bareLabel(repo, false),
      goal: true,
      service: [],
      bare: [],
      checks: [],
    };
    if (warmup > 0) {
      console.log(`warm-up ${warmup} s: render`);
      await measure(bareRender, warmup);
      await measure(serviceRender, warmup);
    }
    for (let run = 1; run <= runs; run++) {
      process.stdout.write(`run ${run}/${runs}: render · bare upstream … `);
      const bare = await measure(bareRender, duration);
      console.log(describe(bare.figures));
      process.stdout.write(`run ${run}/${runs}: render · service … `);
      const service = await measure(serviceRender, duration);
      console.log(describe(service.figures));
      comparison.bare.push(bare.figures);
      comparison.service.push(service.figures);
    }
    comparisons.push(comparison);
  }

  // 2. Add a metadata triple: against the PATCH + re-read the answer needs, and against the PATCH alone.
  {
    const sequence: Comparison = {
      repository: repo.label,
      operation: 'add metadata triple (new literal each)',
      baseline: bareLabel(repo, true),
      goal: true,
      service: [],
      bare: [],
      checks: [],
    };
    const patchOnly: Comparison = {
      repository: repo.label,
      operation: 'add metadata triple (new literal each)',
      baseline: `${repo.key === 'css' ? 'PATCH <container>.meta' : 'PATCH <container>'} only (the brief’s baseline)`,
      goal: true,
      service: [],
      bare: [],
      checks: [],
    };
    if (warmup > 0) {
      console.log(`warm-up ${warmup} s: add`);
      await measure(bareAdd(countTargets, true), warmup);
      await measure(serviceAdd(countTargets), warmup);
      await measure(bareAdd(countTargets, false), warmup);
    }
    const check = (what: string, triples: number, acknowledged: number) => {
      const ok = triples >= acknowledged && triples <= acknowledged + CONNECTIONS;
      const text =
        `${what}: ${triples} triples added for ${acknowledged} acknowledged writes ` +
        `(up to ${CONNECTIONS} more may be unseen in-flight requests)`;
      console.log(`   ${ok ? 'check' : '⚠ CHECK FAILED'}: ${text}`);
      return { ok, text };
    };
    for (let run = 1; run <= runs; run++) {
      const bareTargets = await newTargets();
      process.stdout.write(`run ${run}/${runs}: add · bare upstream (PATCH + re-read) … `);
      const bare = await measure(bareAdd(bareTargets, true), duration);
      console.log(describe(bare.figures));
      sequence.checks.push(
        check(`run ${run} bare`, await added(bareTargets, 'bench-bare'), bare.okByIndex[0]!),
      );

      const serviceTargets = await newTargets();
      process.stdout.write(`run ${run}/${runs}: add · service … `);
      const service = await measure(serviceAdd(serviceTargets), duration);
      console.log(describe(service.figures));
      const serviceCheck = check(
        `run ${run} service`,
        await added(serviceTargets, 'bench-add'),
        service.successes,
      );
      sequence.checks.push(serviceCheck);
      patchOnly.checks.push(serviceCheck);

      const patchTargets = await newTargets();
      process.stdout.write(`run ${run}/${runs}: add · bare upstream (PATCH only) … `);
      const patch = await measure(bareAdd(patchTargets, false), duration);
      console.log(describe(patch.figures));
      patchOnly.checks.push(
        check(`run ${run} PATCH only`, await added(patchTargets, 'bench-bare'), patch.okByIndex[0]!),
      );

      sequence.bare.push(bare.figures);
      sequence.service.push(service.figures);
      patchOnly.bare.push(patch.figures);
      patchOnly.service.push(service.figures);
      const growth = (ops: number) => (ops / ADD_TARGETS).toFixed(0);
      sequence.growth = [
        ...(sequence.growth ?? []),
        `run ${run}: each target gained ≈${growth(service.figures.ops)} triples (service), ` +
          `≈${growth(bare.figures.ops)} (bare PATCH + re-read), ≈${growth(patch.figures.ops)} (PATCH only)`,
      ];
    }
    comparisons.push(sequence, patchOnly);
  }
  return { comparisons, counts, setup };
}

// ---- main -------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const began = performance.now();
  const autocannonVersion = (
    JSON.parse(await readFile(path.join(ROOT, 'node_modules/autocannon/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const cpus = os.cpus();
  const machine: Record<string, string | number> = {
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    loadAverageAtStart: os.loadavg()[0]!.toFixed(2),
  };
  console.log(
    `Scriptorium context bench · ${machine.node} · ${machine.cpuCount} × ${machine.cpuModel} · load ${machine.loadAverageAtStart}\n` +
      `${CONNECTIONS} connections, ${duration} s per run, ${runs} runs per side, ${warmup} s warm-up`,
  );

  dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-context-'));
  const adminPassword = randomBytes(18).toString('base64url');
  const repositoryUser = 'fedoraAdmin';
  const repositoryPassword = randomBytes(18).toString('base64url');
  const service = await startChildServer(
    'scriptorium',
    'src/main.ts',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      SCRIPTORIUM_DATA_DIR: dataDir,
      SCRIPTORIUM_ADMIN_USERNAME: 'admin',
      SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_USERNAME: repositoryUser,
      SCRIPTORIUM_REPOSITORY_PASSWORD: repositoryPassword,
    },
    ROOT,
  );
  children.push(service);
  const css = await startChildServer('Community Solid Server', 'bench/context-css.ts', { PORT: '0' }, ROOT);
  children.push(css);
  console.log(`service at ${service.url}, Community Solid Server at ${css.url}/`);

  const auth = await signIn(service.url, 'admin', adminPassword);
  if (auth.authorization === undefined) throw new Error('this build has no sign-in (POST /auth/login)');
  const api = new Api(service.url, auth);
  const schemas = (await api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const schemaIds = schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => s.id);
  if (schemaIds.length !== 2) throw new Error('the seeded dc and dcterms schemas were not found');

  const repositories = [
    embeddedRepository(service.url, repositoryUser, repositoryPassword),
    cssRepository(`${css.url}/`),
  ];
  const report: ContextReport = {
    date: new Date().toISOString(),
    machine,
    settings: {
      autocannon: autocannonVersion,
      connections: CONNECTIONS,
      durationSeconds: duration,
      runs,
      warmupSeconds: warmup,
      service:
        'node --import tsx src/main.ts, LOG_LEVEL=info, SQLite in a fresh temporary data directory, ' +
        'signed in as admin (Bearer token on every request)',
      embedded:
        'the service’s own /rest/ (same process as the service), HTTP Basic; bare requests go straight to it',
      css: 'Community Solid Server 7.2 in a child process (test/contract/css-config.json: memory backend, allow-all, loopback)',
      data:
        `everything created through the API: views with the dc and dcterms schemas, a container with ` +
        `${METADATA.length} metadata triples (15 dc, 5 dcterms) and ${CHILDREN} empty child containers`,
      add:
        `POST …/metadata with dc:description "bench-add <n>" (n never repeats); every run writes to ${ADD_TARGETS} ` +
        'fresh containers shaped like the render one (round robin), so every side starts from the same state',
      latency:
        'per operation: the sum of autocannon’s per-request times (fractional ms) over one pass through ' +
        'the sequence on a connection; p50/p99 over all operations of a run, then the median over runs',
      counting:
        'a loopback proxy (bench/context-proxy.ts) in front of the repository records every request of ONE ' +
        'operation sent through a second view whose root is the proxy; never used under load',
      order:
        'per repository: render (warm-up, then bare/service alternating), then add (bare, service, PATCH only)',
      processes:
        'autocannon and the counting proxy in the parent process; service and CSS each in a child; all share the CPUs',
    },
    summary: [],
    counts: [],
    legend:
      'In the request lines `<container>` stands for the path of the container the operation is about and ' +
      `\`<RDF>\` for the adapter's Accept list \`${RDF_ACCEPT}\`.`,
    setup: [],
    comparisons: [],
    goalHolds: false,
  };
  for (const repo of repositories) {
    const result = await benchRepository(api, repo, schemaIds);
    report.comparisons.push(...result.comparisons);
    report.counts.push(...result.counts);
    report.setup.push(...result.setup);
  }
  report.machine.loadAverageAtEnd = os.loadavg()[0]!.toFixed(2);
  report.machine.elapsedMinutes = ((performance.now() - began) / 60_000).toFixed(1);
  report.summary = report.comparisons.map(summarizeComparison);
  report.goalHolds = report.summary.every((s) => s.verdict === 'met' && s.problems.length === 0);

  const files = await writeContextReport(RESULTS, report);
  console.log(`\n${renderSummaryTable(report.summary)}\n\n${renderCountTable(report.counts)}\n`);
  console.log(
    `Goal "latency ratio ≤ ${LATENCY_GOAL} and throughput ratio ≥ ${THROUGHPUT_GOAL}": ` +
      (report.goalHolds ? 'holds' : 'does NOT hold everywhere'),
  );
  const flagged = report.summary.flatMap((s) =>
    s.problems.map((p) => `${s.repository} · ${s.operation}: ${p}`),
  );
  if (flagged.length > 0) {
    console.log(`⚠ FLAGGED:\n  ${flagged.join('\n  ')}`);
    process.exitCode = 1;
  }
  console.log(`Wrote ${files.map((f) => path.relative(ROOT, f)).join(', ')}`);
}

try {
  await main();
} finally {
  await cleanUp();
}
