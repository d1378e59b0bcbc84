import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ACTOR_RELAY_HEADER } from '../audit/audit-actor.js';
import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import { AgentPool } from './agent-pool.js';
import type { LocalRoutes } from './in-process-repository.js';
import { formatBasicAuthorization } from '../linked-data/http/basic-auth.js';
import { readBounded } from '../linked-data/http/bounded-body.js';
import { parseLinks, type LinkValue } from '../linked-data/http/link.js';
import { confineUri, parseRoot, type RepositoryRoot } from './uri-confinement.js';

/** What the client needs of a repository view. */
export interface RepositoryEndpoint {
  readonly rootUri: string;
  readonly username?: string | null | undefined;
  readonly password?: string | null | undefined;
}

export interface RepositoryHttpClientOptions {
  /** Time to open the TCP (and TLS) connection. Default 5 s. */
  readonly connectTimeoutMs?: number;
  /** Time to wait for the response headers, and the longest pause while a body streams. Default 30 s. */
  readonly responseTimeoutMs?: number;
  /** Largest RDF (or other text) body read into memory. Binaries are streamed and not limited. Default 16 MiB. */
  readonly maxRdfBytes?: number;
  /** Redirects inside the root followed for GET and HEAD. Default 3. Redirects elsewhere are refused. */
  readonly maxRedirects?: number;
  /** The connection pools to draw from: the app's own, closed with it. */
  readonly agents?: AgentPool;
  /** For tests: another undici dispatcher. */
  readonly dispatcher?: Dispatcher;
  /**
   * Roots answered without a socket: this process's own `/rest/` (in-process-repository.ts). Requests
   * with a streamed body (uploads) still go over HTTP, where a failing body cuts the connection.
   */
  readonly local?: LocalRoutes;
  /** Told of every request sent: the status answered, or undefined when none came (metrics). */
  readonly onAnswer?: (status: number | undefined) => void;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface UpstreamRequest {
  readonly method: HttpMethod;
  readonly uri: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** A text or buffer body, or a stream (sent as it is read, never buffered). */
  readonly body?: string | Buffer | Readable | undefined;
}

/** One upstream answer. The body must be read (`text`), streamed on, or `discard`ed by the caller. */
export interface UpstreamResponse {
  readonly method: HttpMethod;
  /** The URL that answered (after redirects inside the root). */
  readonly url: string;
  readonly status: number;
  readonly body: Readable;
  /** A header's value; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /** Every Link header value, parsed. */
  links(): LinkValue[];
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RDF_BYTES = 16 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;
const SNIPPET_LENGTH = 200;

/**
 * The pools of clients created without `agents` (tests, benchmarks, scripts): the process's, never closed.
 * The app always passes its own.
 */
let standalonePool: AgentPool | undefined;

/**
 * The one HTTP client under every repository adapter. Every request is confined to the view's origin and
 * root path (`confine`), carries the view's HTTP Basic credentials when a username is set, has a connect
 * timeout and a response timeout, and does not follow redirects by itself: GET and HEAD follow up to
 * three redirects that stay inside the root; a redirect elsewhere is refused. Transport failures and
 * (through `fail`/`expectOk`) unwanted statuses become `UpstreamFailedError`s whose message names the
 * method, URL and status, e.g. `GET http://host/rest/x answered 404 Not Found` — never the credentials,
 * which never appear in URLs either (a root with credentials in it is refused).
 */
export class RepositoryHttpClient {
  readonly root: RepositoryRoot;
  /** Requests sent so far by this client (redirects followed count too); for the benchmark. */
  requestCount = 0;

  private readonly authorization: string | undefined;
  private readonly secrets: readonly string[];
  private readonly dispatcher: Dispatcher;
  /** Where this process's own `/rest/` is answered in process (asked per request: it may start listening later). */
  private readonly local: LocalRoutes | undefined;
  private readonly connectTimeoutMs: number;
  private readonly responseTimeoutMs: number;
  private readonly maxRdfBytes: number;
  private readonly maxRedirects: number;
  private readonly onAnswer: ((status: number | undefined) => void) | undefined;

  constructor(endpoint: RepositoryEndpoint, options: RepositoryHttpClientOptions = {}) {
    this.root = parseRoot(endpoint.rootUri);
    const username = endpoint.username ?? '';
    const password = endpoint.password ?? '';
    if (username.includes(':'))
      throw new BadRequestError('A repository username cannot contain ":" (HTTP Basic)');
    const authorization = formatBasicAuthorization(username, password);
    const token = authorization.slice('Basic '.length);
    this.authorization = username === '' ? undefined : authorization;
    this.secrets = [password, token, encodeURIComponent(password)].filter((s) => s.length >= 3);
    this.connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.responseTimeoutMs = options.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
    this.maxRdfBytes = options.maxRdfBytes ?? DEFAULT_MAX_RDF_BYTES;
    this.maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    this.dispatcher =
      options.dispatcher ??
      (options.agents ?? (standalonePool ??= new AgentPool())).agentFor(
        this.connectTimeoutMs,
        this.responseTimeoutMs,
      );
    this.local = options.dispatcher === undefined ? options.local : undefined;
    this.onAnswer = options.onAnswer;
  }

  /** Whether requests are answered in process (this process's own `/rest/`) rather than over HTTP. */
  get inProcess(): boolean {
    return this.local?.transportFor(this.root) !== undefined;
  }

  /** The root IRI, ending with `/`. */
  get rootUri(): string {
    return this.root.href;
  }

  /** The URI normalised and checked to lie inside the root; a BadRequestError otherwise. */
  confine(uri: string): string {
    return confineUri(this.root, uri);
  }

  /**
   * Confines a URI the repository itself answered (a Location, a describedby link, a child): `reference`
   * is resolved against the response's URL; one outside the root is the repository's fault, so an
   * UpstreamFailedError naming the request.
   */
  confineAnswered(response: UpstreamResponse, reference: string): string {
    try {
      return this.confine(new URL(reference, response.url).href);
    } catch {
      throw new UpstreamFailedError(
        `${response.method} ${response.url} answered a link outside the repository root (${reference.slice(0, 200)})`,
      );
    }
  }

  /**
   * Sends one request (following redirects inside the root for GET/HEAD). Answers whatever status the
   * repository gave; throws `UpstreamFailedError` only when no answer came (refused, timed out, reset).
   */
  async send(request: UpstreamRequest): Promise<UpstreamResponse> {
    let url = this.confine(request.uri);
    const followable = (request.method === 'GET' || request.method === 'HEAD') && request.body === undefined;
    for (let redirects = 0; ; redirects++) {
      const response = await this.sendOnce(request, url);
      const location = response.header('location');
      if (
        !followable ||
        response.status < 300 ||
        response.status >= 400 ||
        response.status === 304 ||
        location === undefined
      ) {
        return response;
      }
      await discard(response);
      let next: string;
      try {
        next = this.confine(new URL(location, url).href);
      } catch {
        throw new UpstreamFailedError(
          `${request.method} ${url} answered ${statusText(response.status)} redirecting outside the repository root; not followed`,
        );
      }
      if (redirects >= this.maxRedirects) {
        throw new UpstreamFailedError(
          `${request.method} ${url} failed: more than ${this.maxRedirects} redirects`,
        );
      }
      url = next;
    }
  }

  /** `send`, then `fail` unless the status is 2xx (or one of `accept`). */
  async expectOk(request: UpstreamRequest, accept: readonly number[] = []): Promise<UpstreamResponse> {
    const response = await this.send(request);
    if ((response.status >= 200 && response.status < 300) || accept.includes(response.status))
      return response;
    throw await this.fail(response);
  }

  /**
   * The error for an unwanted answer: `<METHOD> <url> answered <status> <reason>`, plus the first line of
   * a short textual body when there is one (credentials redacted). Consumes the body.
   */
  async fail(response: UpstreamResponse, hint?: string): Promise<UpstreamFailedError> {
    let detail = '';
    try {
      const type = response.header('content-type') ?? '';
      if (/^text\/plain|^text\/html/i.test(type) || type === '') {
        const text = await this.text(response, 8192);
        const line = text
          .split(/\r?\n/)
          .map((l) => l.trim())
          .find((l) => l !== '' && !l.startsWith('<'));
        if (line !== undefined) detail = `: ${this.redact(line).slice(0, SNIPPET_LENGTH)}`;
      } else {
        await discard(response);
      }
    } catch {
      // The body could not be read; the status says enough.
    }
    const suffix = hint === undefined ? '' : ` (${hint})`;
    return new UpstreamFailedError(
      `${response.method} ${response.url} answered ${statusText(response.status)}${detail}${suffix}`,
      { status: response.status },
    );
  }

  /** Reads a (text) body, refusing more than `limit` bytes (default: the RDF limit). */
  async text(response: UpstreamResponse, limit = this.maxRdfBytes): Promise<string> {
    const tooLarge = () => {
      abandon(response);
      return this.tooLarge(response, limit);
    };
    // A whole text body must arrive within the response timeout (a trickle cannot hold a request open).
    const state = { timedOut: false };
    const deadline = setTimeout(() => {
      state.timedOut = true;
      abandon(response);
    }, this.responseTimeoutMs);
    let body: Buffer;
    try {
      body = await readBounded(response.body, limit, {
        declaredLength: response.header('content-length'),
        tooLarge,
      });
    } catch (error) {
      if (error instanceof UpstreamFailedError) throw error;
      const cause: unknown = state.timedOut ? { code: 'UND_ERR_BODY_TIMEOUT' } : error;
      throw this.transportError(response.method, response.url, cause);
    } finally {
      clearTimeout(deadline);
    }
    if (state.timedOut)
      throw this.transportError(response.method, response.url, { code: 'UND_ERR_BODY_TIMEOUT' });
    return body.toString('utf8');
  }

  private tooLarge(response: UpstreamResponse, limit: number): UpstreamFailedError {
    return new UpstreamFailedError(
      `${response.method} ${response.url} answered a body larger than the limit of ${formatBytes(limit)}`,
    );
  }

  private async sendOnce(request: UpstreamRequest, url: string): Promise<UpstreamResponse> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      // Only this client puts a relay token on a request (below), never a caller.
      if (value !== undefined && name.toLowerCase() !== ACTOR_RELAY_HEADER)
        headers[name.toLowerCase()] = value;
    }
    delete headers.authorization;
    if (this.authorization !== undefined) headers.authorization = this.authorization;
    this.requestCount++;
    let answer: Pick<Dispatcher.ResponseData, 'statusCode' | 'headers'> & { body: Readable };
    try {
      const parsed = new URL(url);
      const body = request.body ?? null;
      // A streamed body (an upload) always goes over HTTP: a failing stream cuts the connection there.
      const local = this.local?.transportFor(this.root);
      if (local !== undefined && !(body instanceof Readable)) {
        answer = await local.request({
          origin: parsed.origin,
          path: `${parsed.pathname}${parsed.search}`,
          method: request.method,
          headers,
          body,
          responseTimeoutMs: this.responseTimeoutMs,
        });
      } else {
        // An upload to this process's own /rest over loopback carries the person it is made for.
        const relayed = local === undefined ? undefined : this.local?.relayActor?.(parsed.origin);
        if (relayed !== undefined) headers[ACTOR_RELAY_HEADER] = relayed.token;
        try {
          answer = await this.dispatcher.request({
            origin: parsed.origin,
            path: `${parsed.pathname}${parsed.search}`,
            method: request.method,
            headers,
            body,
            headersTimeout: this.responseTimeoutMs,
            bodyTimeout: this.responseTimeoutMs,
          });
        } finally {
          // Redeemed as /rest's handler started, before it answered: no token outlives its request.
          relayed?.release();
        }
      }
    } catch (error) {
      this.onAnswer?.(undefined);
      throw this.transportError(request.method, url, error);
    }
    this.onAnswer?.(answer.statusCode);
    const raw = answer.headers;
    const body = answer.body;
    // A failure while the caller streams the body on (a download) must not leak credentials either.
    return {
      method: request.method,
      url,
      status: answer.statusCode,
      body,
      header: (name: string) => {
        const value = raw[name.toLowerCase()];
        if (value === undefined) return undefined;
        return Array.isArray(value) ? value.join(', ') : value;
      },
      // Lenient: a repository's malformed link costs that link, not the response.
      links: () => parseLinks(raw.link, { lenient: true }),
    };
  }

  /** A transport failure as `<METHOD> <url> failed: <why>` / `timed out after 30 s`. */
  transportError(method: string, url: string, error: unknown): UpstreamFailedError {
    const code = (error as { code?: unknown } | null)?.code;
    let why: string;
    switch (code) {
      case 'UND_ERR_CONNECT_TIMEOUT':
        why = `failed: connect timed out after ${formatSeconds(this.connectTimeoutMs)}`;
        break;
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        why = `timed out after ${formatSeconds(this.responseTimeoutMs)}`;
        break;
      default: {
        const message = error instanceof Error ? error.message : String(error);
        why = `failed: ${this.redact(message).slice(0, SNIPPET_LENGTH)}`;
      }
    }
    return new UpstreamFailedError(`${method} ${url} ${why}`, { cause: error });
  }

  /** Removes anything that looks like the view's credentials from a text. */
  private redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) result = result.split(secret).join('[redacted]');
    return result;
  }
}

/** Stops a body that is not wanted (a binary's bytes when only its headers mattered); never throws. */
export function abandon(response: UpstreamResponse): void {
  response.body.on('error', () => undefined);
  response.body.destroy();
}

/** Throws away a body without reading it into memory. */
export async function discard(response: UpstreamResponse): Promise<void> {
  const body = response.body as Readable & { dump?: () => Promise<void> };
  try {
    if (typeof body.dump === 'function') await body.dump();
    else abandon(response);
  } catch {
    // nothing to do: the body is gone either way
  }
}

export function statusText(status: number): string {
  const reason = STATUS_CODES[status];
  return reason === undefined ? String(status) : `${status} ${reason}`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
