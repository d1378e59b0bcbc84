import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { Client, type Dispatcher } from 'undici';
import { readBounded } from '../linked-data/http/bounded-body.js';
import { AddressPolicy } from './address-policy.js';

/** What the vocabulary reader asks for, best first (interface §4.5, content negotiation for RDF). */
export const ACCEPT =
  'text/turtle, application/rdf+xml;q=0.9, application/ld+json;q=0.8, application/n-triples;q=0.7';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

export interface VocabularyFetcherOptions {
  /** Host names or addresses that may be reached although they are loopback, private, … (config). */
  readonly allowedHosts?: readonly string[];
  /** The whole request, redirects included. */
  readonly timeoutMs?: number;
  readonly maxBytes?: number;
  readonly maxRedirects?: number;
  /** Name resolution; tests replace it to point a name at a local server. */
  readonly resolve?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
}

export interface FetchedDocument {
  /** The URL finally read, after redirects; the base for relative IRIs. */
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** Why a fetch failed, worded for a curator (`connection refused`, `upstream answered 404`, …). */
export class VocabularyFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VocabularyFetchError';
  }
}

const DEFAULTS = { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 5 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const defaultResolve = async (hostname: string): Promise<readonly ResolvedAddress[]> =>
  dnsLookup(hostname, { all: true, verbatim: true });

/** Always answers the address that was checked, so a second DNS answer (rebinding) is never used. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** A Node network error in a curator's words. */
function describeNetworkError(error: unknown, hostname: string): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
      return 'host unreachable';
    case 'ENETUNREACH':
      return 'network unreachable';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
    case 'ENODATA':
      return `host ${hostname} could not be resolved`;
    default:
      break;
  }
  if (/CERT|TLS|SSL/.test(code)) return `TLS failure: ${message}`;
  return message;
}

/**
 * Reads a vocabulary document over HTTP(S) for `/schema/properties`, defensively: only http and https,
 * only to addresses the AddressPolicy allows (checked after resolution, and the connection uses exactly
 * the checked address), redirects followed by hand to the same host only, one deadline for the whole
 * exchange, and a cap on the body size.
 */
export class VocabularyFetcher {
  private readonly policy: AddressPolicy;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxRedirects: number;
  private readonly resolve: (hostname: string) => Promise<readonly ResolvedAddress[]>;

  constructor(options: VocabularyFetcherOptions = {}) {
    this.policy = new AddressPolicy(options.allowedHosts);
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxBytes = options.maxBytes ?? DEFAULTS.maxBytes;
    this.maxRedirects = options.maxRedirects ?? DEFAULTS.maxRedirects;
    this.resolve = options.resolve ?? defaultResolve;
  }

  /** Throws VocabularyFetchError with the reason on any failure. */
  async fetch(target: string): Promise<FetchedDocument> {
    let url = parseHttpUrl(target);
    const host = url.hostname;
    const controller = new AbortController();
    const timedOut = new VocabularyFetchError(`timed out after ${this.timeoutMs / 1000} s`);
    const timer = setTimeout(() => {
      controller.abort(timedOut);
    }, this.timeoutMs);
    const deadline = new Promise<never>((_resolve, reject) => {
      controller.signal.addEventListener('abort', () => {
        reject(timedOut);
      });
    });
    deadline.catch(() => undefined);
    try {
      for (let redirects = 0; ; redirects++) {
        const address = await Promise.race([this.checkedAddress(url), deadline]);
        const response = await Promise.race([this.get(url, address, controller.signal), deadline]);
        if (response.kind === 'document') return response.document;
        if (redirects >= this.maxRedirects) {
          throw new VocabularyFetchError(`too many redirects (more than ${this.maxRedirects})`);
        }
        const next = new URL(response.location, url);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new VocabularyFetchError(`redirected to an unsupported scheme (${next.protocol})`);
        }
        if (next.hostname !== host) {
          throw new VocabularyFetchError(`redirected to another host (${next.host}), which is not followed`);
        }
        url = next;
      }
    } catch (error) {
      if (controller.signal.aborted) throw timedOut;
      throw error;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  /** Resolves the host and refuses when any of its addresses is not allowed. */
  private async checkedAddress(url: URL): Promise<ResolvedAddress> {
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: readonly ResolvedAddress[];
    const family = isIP(hostname);
    if (family !== 0) addresses = [{ address: hostname, family }];
    else {
      try {
        addresses = await this.resolve(hostname);
      } catch (error) {
        throw new VocabularyFetchError(describeNetworkError(error, hostname), { cause: error });
      }
    }
    const first = addresses[0];
    if (first === undefined) throw new VocabularyFetchError(`host ${hostname} could not be resolved`);
    for (const { address } of addresses) {
      if (!this.policy.allows(hostname, address)) {
        throw new VocabularyFetchError(`address ${address} is not allowed`);
      }
    }
    return first;
  }

  /**
   * One GET on a connection of its own, pinned to the checked address: undici is told how to "resolve"
   * the name, and the answer is the address the policy allowed. Redirects are answered, not followed.
   */
  private async get(
    url: URL,
    address: ResolvedAddress,
    signal: AbortSignal,
  ): Promise<{ kind: 'document'; document: FetchedDocument } | { kind: 'redirect'; location: string }> {
    const client = new Client(url.origin, { connect: { lookup: pinnedLookup(address) } });
    try {
      let response: Dispatcher.ResponseData;
      try {
        response = await client.request({
          method: 'GET',
          path: `${url.pathname}${url.search}`,
          headers: { accept: ACCEPT, 'user-agent': 'Scriptorium vocabulary reader' },
          signal,
        });
      } catch (error) {
        throw new VocabularyFetchError(describeNetworkError(error, url.hostname), { cause: error });
      }
      const status = response.statusCode;
      const location = single(response.headers.location);
      if (REDIRECTS.has(status) && location !== undefined) return { kind: 'redirect', location };
      if (status < 200 || status > 299) throw new VocabularyFetchError(`upstream answered ${status}`);
      const body = await this.readBody(response);
      const contentType = single(response.headers['content-type']);
      return { kind: 'document', document: { url: url.toString(), contentType, body } };
    } finally {
      // Ends the connection and whatever of the body is left unread.
      void client.destroy().catch(() => undefined);
    }
  }

  private async readBody(response: Dispatcher.ResponseData): Promise<string> {
    try {
      const body = await readBounded(response.body, this.maxBytes, {
        declaredLength: single(response.headers['content-length']),
        tooLarge: () => new VocabularyFetchError(`response larger than ${formatBytes(this.maxBytes)}`),
      });
      return body.toString('utf8');
    } catch (error) {
      if (error instanceof VocabularyFetchError) throw error;
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
      if (code === 'UND_ERR_SOCKET')
        throw new VocabularyFetchError('connection closed before the whole response arrived', {
          cause: error,
        });
      throw new VocabularyFetchError(describeNetworkError(error, ''), { cause: error });
    }
  }
}

/** One value of a header undici may give as a list. */
function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parseHttpUrl(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new VocabularyFetchError('not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new VocabularyFetchError(`unsupported scheme ${url.protocol}`);
  }
  url.hash = '';
  return url;
}
