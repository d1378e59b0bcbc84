import ipaddr from 'ipaddr.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEDORA_DIALECTS, isFedoraDialect, type FedoraDialect } from '../shared/fedora-dialect.js';
import { binaryStoreConfig, type BinaryStoreSettings } from './binary-store-config.js';
import { notificationConfig, type NotificationConfig } from './notification-config.js';
import { operationsConfig, type OperationsConfig } from './operations-config.js';

/** The workbench's build, two folders up from this module in both `src/config` and `dist/config`. */
const DEFAULT_UI_DIR = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

/** Where the service keeps its records: the embedded SQLite file or a PostgreSQL server. */
export type DatabaseConfig =
  | { readonly kind: 'sqlite'; readonly file: string }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /** Only set by tests, which give every app its own schema; production uses the URL's default. */
      readonly schema?: string;
    };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Notifications' settings (SMTP, the delivery worker) are in notification-config.ts, the metrics token in operations-config.ts. */
export interface Config extends NotificationConfig, BinaryStoreSettings, OperationsConfig {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly dataDir: string;
  readonly adminUsername: string;
  readonly adminPassword: string | undefined;
  readonly secret: string | undefined;
  readonly embeddedRepository: boolean;
  readonly repositoryUsername: string;
  readonly repositoryPassword: string | undefined;
  /** How long an embedded-repository transaction lives without activity, in seconds (Fedora: 3 minutes). */
  readonly repositoryTxTimeoutSeconds: number;
  /**
   * Which Fedora line the embedded repository answers as (compatibility and test mode): FEDORA_6 (the
   * default, Fedora 6/7), FEDORA_5 or FEDORA_4 (`fedora-api.md` §1).
   */
  readonly repositoryDialect: FedoraDialect;
  /** Largest binary the embedded repository accepts, in bytes (413 above it). */
  readonly repositoryMaxBinaryBytes: number;
  /**
   * Limits of a SPARQL Update on the embedded repository (PATCH), which runs in a worker thread: the
   * longest it may evaluate, in milliseconds, and the most solutions one WHERE may have (422 past either).
   */
  readonly repositoryUpdateTimeoutMs: number;
  readonly repositoryUpdateMaxSolutions: number;
  readonly logLevel: LogLevel;
  /**
   * The URL clients use to reach this service; the default `Embedded repository` view points at
   * `<publicUrl>/rest/`. Default: http://<HOST, or 127.0.0.1 for a wildcard>:<PORT>.
   */
  readonly publicUrl: string;
  /** How long a sign-in token lives, in minutes. */
  readonly tokenTtlMinutes: number;
  /** Largest JSON body accepted, in bytes (413 above it). */
  readonly bodyLimit: number;
  /**
   * Host names or IP addresses that `GET /schema/properties` may read although they are loopback,
   * link-local or private (by default every such address is refused).
   */
  readonly vocabularyFetchAllowedHosts: readonly string[];
  /**
   * Connection limits against slow clients (slowloris), in seconds: a connection with no traffic either
   * way for `idleTimeoutSeconds` is closed; a request's headers must arrive within
   * `headersTimeoutSeconds` and the whole request, body included, within `requestTimeoutSeconds` (0: no
   * limit, the idle timeout still applies); an idle keep-alive connection closes after
   * `keepAliveTimeoutSeconds`. At most `maxConnections` connections are open at once per process.
   */
  readonly idleTimeoutSeconds: number;
  readonly headersTimeoutSeconds: number;
  readonly requestTimeoutSeconds: number;
  readonly keepAliveTimeoutSeconds: number;
  readonly maxConnections: number;
  /**
   * Sign-in attempts (`POST /auth/login`) accepted per minute from one client address (an IPv6 client
   * is counted by its /64), and from all addresses together; above either, 429.
   */
  readonly loginRatePerAddress: number;
  readonly loginRateGlobal: number;
  /**
   * Which proxies' `X-Forwarded-For` to believe for the client address (rate limits, lock-out, the
   * `/rest` throttle): `false` (the socket's peer, the default), a number of proxy hops, or the proxies'
   * addresses/CIDR ranges. Fastify's `trustProxy`.
   */
  readonly trustProxy: false | number | readonly string[];
  /**
   * Curation jobs (DECISIONS.md §9): requests in flight per job toward the repository (4), the most
   * resources one job may cover (10 000), how long a runner's lease on a job lasts without renewal, in
   * seconds (30: a job whose runner died is resumed after about that long), and how many jobs one
   * instance runs at once (2).
   */
  readonly jobConcurrency: number;
  readonly jobMaxResources: number;
  readonly jobLeaseSeconds: number;
  readonly jobWorkers: number;
  /**
   * INDEX curation jobs (DECISIONS.md §12): the most resources one may index (1 000 000: an index covers a
   * whole repository, where a MAPPING job's limit is what a curator reviews), and whether a view created on
   * an external repository is indexed at once by itself (SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS, default on;
   * off, its index waits for a reindex).
   */
  readonly indexJobMaxResources: number;
  readonly searchIndexNewViews: boolean;
  /**
   * SPREADSHEET curation jobs (DECISIONS.md §13): the most data rows one imported sheet may have
   * (SCRIPTORIUM_SPREADSHEET_MAX_ROWS, 100 000) and its largest size in bytes, as CSV text or an uploaded
   * file (SCRIPTORIUM_SPREADSHEET_MAX_BYTES, 256 MiB).
   */
  readonly spreadsheetMaxRows: number;
  readonly spreadsheetMaxBytes: number;
  /**
   * Spreadsheet export (DECISIONS.md §13): the most resources one export may hold (1 000 000). An export is
   * read once and spooled to a temporary file, never held in memory, so it is not bound by what a curator
   * reviews in one job.
   */
  readonly exportMaxResources: number;
  /** Who makes the BagIt packages EXPORT jobs write (bag-info.txt `Source-Organization`; DECISIONS.md §15). */
  readonly organization: string;
  /**
   * The budget of built contexts kept for views of this process's own repository, in MiB (32); 0 keeps
   * none (repository-view-context/render-cache.ts).
   */
  readonly renderCacheMiB: number;
  /**
   * The bounds of a search's regular-expression term (DECISIONS.md §12, "time- and row-bounded"): the
   * most values one such term may examine (200 000) and the longest it may match, in milliseconds (2 000);
   * past either the query is INVALID (narrow it).
   */
  readonly searchRegexMaxValues: number;
  readonly searchRegexMaxMillis: number;
  /**
   * Whether this instance runs the search feed that indexes the embedded repository's writes (DECISIONS.md
   * §12; SCRIPTORIUM_SEARCH_FEED, default on). Off, writes are still queued for indexing (in the database,
   * by triggers) and any instance with the feed on, or this one once it is on again, indexes them.
   */
  readonly searchFeed: boolean;
  /**
   * The curator's workbench (DECISIONS.md §11): the folder of its built files, served at /ui/
   * (SCRIPTORIUM_UI_DIR; default: `dist/ui` in the installation, which `npm start` builds).
   */
  readonly uiDir: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Reads the environment variables of DECISIONS.md §1, applies their defaults and reports every problem
 * at once, so an operator fixes a broken deployment in one pass.
 */
export function loadConfig(env: Env): Config {
  const problems: string[] = [];
  const text = (name: string, fallback: string): string => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    return value;
  };
  const optional = (name: string): string | undefined => {
    const value = env[name];
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const normalized = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
    if (['false', '0', 'no', 'off'].includes(normalized)) return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };

  const dataDir = path.resolve(text('SCRIPTORIUM_DATA_DIR', './data'));
  const databaseUrl = optional('DATABASE_URL');
  let database: DatabaseConfig = { kind: 'sqlite', file: path.join(dataDir, 'scriptorium.sqlite') };
  if (databaseUrl !== undefined) {
    if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
      database = { kind: 'postgres', url: databaseUrl };
    } else {
      // Never echo the URL itself: it may carry a password.
      problems.push('DATABASE_URL must start with postgres:// or postgresql:// (unset it to use SQLite)');
    }
  }

  const logLevelRaw = text('LOG_LEVEL', 'info');
  const logLevel = LOG_LEVELS.find((level) => level === logLevelRaw);
  if (logLevel === undefined)
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevelRaw}"`);

  const hostList = (name: string): string[] => {
    const hosts = (env[name] ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host !== '');
    for (const host of hosts) {
      if (!/^(\[[0-9a-f:.]+\]|[0-9a-f:]*:[0-9a-f:.]+|[a-z0-9._-]+)$/.test(host)) {
        problems.push(`${name} must be a comma-separated list of host names or IP addresses, got "${host}"`);
      }
    }
    return hosts;
  };

  const dialectRaw = text('SCRIPTORIUM_REPOSITORY_DIALECT', 'FEDORA_6').toUpperCase();
  const repositoryDialect = FEDORA_DIALECTS.find((d) => d === dialectRaw) ?? 'FEDORA_6';
  if (!isFedoraDialect(dialectRaw))
    problems.push(
      `SCRIPTORIUM_REPOSITORY_DIALECT must be one of ${FEDORA_DIALECTS.join(', ')}, got "${dialectRaw}"`,
    );

  const port = integer('PORT', 8080, 0, 65535);
  const host = text('HOST', '127.0.0.1');
  const reachableHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const publicUrlRaw = text('SCRIPTORIUM_PUBLIC_URL', `http://${reachableHost}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrlRaw)) {
    problems.push(`SCRIPTORIUM_PUBLIC_URL must be an http(s) URL, got "${publicUrlRaw}"`);
  }
  const config: Config = {
    port,
    host,
    publicUrl: publicUrlRaw,
    database,
    dataDir,
    adminUsername: text('SCRIPTORIUM_ADMIN_USERNAME', 'admin'),
    adminPassword: optional('SCRIPTORIUM_ADMIN_PASSWORD'),
    secret: optional('SCRIPTORIUM_SECRET'),
    embeddedRepository: flag('SCRIPTORIUM_EMBEDDED_REPOSITORY', true),
    repositoryUsername: text('SCRIPTORIUM_REPOSITORY_USERNAME', 'fedoraAdmin'),
    repositoryPassword: optional('SCRIPTORIUM_REPOSITORY_PASSWORD'),
    repositoryTxTimeoutSeconds: integer('SCRIPTORIUM_REPOSITORY_TX_TIMEOUT_SECONDS', 180, 1, 86_400),
    repositoryDialect,
    repositoryMaxBinaryBytes: integer('SCRIPTORIUM_REPOSITORY_MAX_BINARY_BYTES', 2 ** 40, 1024, 2 ** 50),
    repositoryUpdateTimeoutMs: integer('SCRIPTORIUM_REPOSITORY_UPDATE_TIMEOUT_MS', 5_000, 100, 600_000),
    repositoryUpdateMaxSolutions: integer(
      'SCRIPTORIUM_REPOSITORY_UPDATE_MAX_SOLUTIONS',
      100_000,
      1,
      10_000_000,
    ),
    logLevel: logLevel ?? 'info',
    tokenTtlMinutes: integer('SCRIPTORIUM_TOKEN_TTL_MINUTES', 480, 1, 60 * 24 * 30),
    bodyLimit: integer('SCRIPTORIUM_BODY_LIMIT', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    vocabularyFetchAllowedHosts: Object.freeze(hostList('SCRIPTORIUM_VOCABULARY_ALLOWED_HOSTS')),
    ...connectionLimits(integer, problems),
    loginRatePerAddress: integer('SCRIPTORIUM_LOGIN_RATE_PER_ADDRESS', 30, 1, 100_000),
    loginRateGlobal: integer('SCRIPTORIUM_LOGIN_RATE_GLOBAL', 300, 1, 1_000_000),
    trustProxy: trustedProxies(env.SCRIPTORIUM_TRUST_PROXY, problems),
    jobConcurrency: integer('SCRIPTORIUM_JOB_CONCURRENCY', 4, 1, 64),
    jobMaxResources: integer('SCRIPTORIUM_JOB_MAX_RESOURCES', 10_000, 1, 10_000_000),
    jobLeaseSeconds: integer('SCRIPTORIUM_JOB_LEASE_SECONDS', 30, 3, 3_600),
    jobWorkers: integer('SCRIPTORIUM_JOB_WORKERS', 2, 1, 64),
    indexJobMaxResources: integer('SCRIPTORIUM_INDEX_JOB_MAX_RESOURCES', 1_000_000, 1, 100_000_000),
    searchIndexNewViews: flag('SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS', true),
    spreadsheetMaxRows: integer('SCRIPTORIUM_SPREADSHEET_MAX_ROWS', 100_000, 1, 10_000_000),
    spreadsheetMaxBytes: integer('SCRIPTORIUM_SPREADSHEET_MAX_BYTES', 256 * 1024 * 1024, 1024, 2 ** 40),
    exportMaxResources: integer('SCRIPTORIUM_EXPORT_MAX_RESOURCES', 1_000_000, 1, 100_000_000),
    organization: text('SCRIPTORIUM_ORGANIZATION', 'Scriptorium'),
    renderCacheMiB: integer('SCRIPTORIUM_RENDER_CACHE_MIB', 32, 0, 65_536),
    searchRegexMaxValues: integer('SCRIPTORIUM_SEARCH_REGEX_MAX_VALUES', 200_000, 1, 100_000_000),
    searchRegexMaxMillis: integer('SCRIPTORIUM_SEARCH_REGEX_MAX_MILLIS', 2_000, 10, 600_000),
    searchFeed: flag('SCRIPTORIUM_SEARCH_FEED', true),
    uiDir: path.resolve(text('SCRIPTORIUM_UI_DIR', DEFAULT_UI_DIR)),
    ...notificationConfig(env, integer, problems),
    ...binaryStoreConfig(env, dataDir, integer, flag, problems),
    ...operationsConfig(env, problems),
  };
  // The embedded repository's password is guessable over HTTP (throttled, but per address): demand length.
  // Never echo it.
  if (config.repositoryPassword !== undefined && Array.from(config.repositoryPassword).length < 16) {
    problems.push('SCRIPTORIUM_REPOSITORY_PASSWORD must be at least 16 characters long');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/**
 * The slow-client limits. Defaults: a stall of 2 minutes closes a connection (longer than one upstream
 * request may take, 30 s); headers within 30 s; a whole request within an hour, so a 100 MiB upload still
 * fits on a link of 0.25 Mbit/s while a body trickled in byte by byte cannot hold a connection for ever;
 * keep-alive connections idle 10 s; 512 connections per process, well under the usual 1024 open files.
 */
function connectionLimits(
  integer: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
) {
  const limits = {
    idleTimeoutSeconds: integer('SCRIPTORIUM_IDLE_TIMEOUT_SECONDS', 120, 1, 86_400),
    headersTimeoutSeconds: integer('SCRIPTORIUM_HEADERS_TIMEOUT_SECONDS', 30, 1, 3_600),
    requestTimeoutSeconds: integer('SCRIPTORIUM_REQUEST_TIMEOUT_SECONDS', 3_600, 0, 7 * 86_400),
    keepAliveTimeoutSeconds: integer('SCRIPTORIUM_KEEP_ALIVE_TIMEOUT_SECONDS', 10, 1, 3_600),
    maxConnections: integer('SCRIPTORIUM_MAX_CONNECTIONS', 512, 1, 1_000_000),
  };
  if (limits.requestTimeoutSeconds > 0 && limits.headersTimeoutSeconds > limits.requestTimeoutSeconds) {
    problems.push(
      'SCRIPTORIUM_HEADERS_TIMEOUT_SECONDS must not exceed SCRIPTORIUM_REQUEST_TIMEOUT_SECONDS (unless that is 0)',
    );
  }
  return limits;
}

/**
 * `SCRIPTORIUM_TRUST_PROXY`: unset or `false`; a hop count (1–10); or comma-separated addresses and CIDR
 * ranges of the proxies. Trusting every sender (`true`) is not offered: any client could then choose the
 * address the rate limits see.
 */
function trustedProxies(raw: string | undefined, problems: string[]): false | number | readonly string[] {
  const text = (raw ?? '').trim().toLowerCase();
  if (text === '' || text === 'false') return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops >= 1 && hops <= 10) return hops;
  } else {
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const valid = (entry: string) =>
      entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (entries.length > 0 && entries.every(valid)) return Object.freeze(entries);
  }
  problems.push(
    `SCRIPTORIUM_TRUST_PROXY must be false, a hop count from 1 to 10, or comma-separated proxy addresses/CIDR ranges, got "${raw ?? ''}"`,
  );
  return false;
}
