import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
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
      return 'connection reset';
    case 'ETIMEDOUT':
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

  private get(
    url: URL,
    address: ResolvedAddress,
    signal: AbortSignal,
  ): Promise<{ kind: 'document'; document: FetchedDocument } | { kind: 'redirect'; location: string }> {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        url,
        {
          method: 'GET',
          headers: { accept: ACCEPT, 'user-agent': 'Scriptorium vocabulary reader' },
          lookup: pinnedLookup(address),
          agent: false,
          signal,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const location = response.headers.location;
          if (REDIRECTS.has(status) && location !== undefined) {
            response.resume();
            resolve({ kind: 'redirect', location });
            return;
          }
          if (status < 200 || status > 299) {
            response.resume();
            reject(new VocabularyFetchError(`upstream answered ${status}`));
            return;
          }
          this.readBody(response).then(
            (body) => {
              resolve({
                kind: 'document',
                document: { url: url.toString(), contentType: response.headers['content-type'], body },
              });
            },
            (error: unknown) => {
              reject(error instanceof Error ? error : new Error(String(error)));
            },
          );
        },
      );
      request.on('error', (error) => {
        reject(
          error instanceof VocabularyFetchError
            ? error
            : new VocabularyFetchError(describeNetworkError(error, url.hostname), { cause: error }),
        );
      });
      request.end();
    });
  }

  private readBody(response: IncomingMessage): Promise<string> {
    const tooLarge = () => new VocabularyFetchError(`response larger than ${formatBytes(this.maxBytes)}`);
    return new Promise((resolve, reject) => {
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.maxBytes) {
        reject(tooLarge());
        response.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.maxBytes) {
          // Reject first: destroying the stream reports it as aborted, which must not win.
          reject(tooLarge());
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      response.on('error', (error) => {
        reject(new VocabularyFetchError(describeNetworkError(error, ''), { cause: error }));
      });
      response.on('aborted', () => {
        reject(new VocabularyFetchError('connection closed before the whole response arrived'));
      });
    });
  }
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
