import { PassThrough, type Readable } from 'node:stream';
import { ACTOR_RELAY_HEADER, currentActor, type ActorRelay } from '../audit/audit-actor.js';
import type { RepositoryRoot } from './uri-confinement.js';

/**
 * One request as the in-process transport takes it: what `RepositoryHttpClient` would hand undici.
 * Only requests without a streamed body come here (see `RepositoryHttpClient`).
 */
export interface TransportRequest {
  readonly origin: string;
  /** Path and query, as sent on the wire. */
  readonly path: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | Buffer | null;
  /** Time for the answer's headers, and the longest pause while its body streams. */
  readonly responseTimeoutMs: number;
}

/** The answer, shaped like undici's `Dispatcher.ResponseData` as far as the client reads it. */
export interface TransportResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Readable;
}

/** Something that answers requests without a socket (the client's alternative to undici). */
export interface UpstreamTransport {
  request(request: TransportRequest): Promise<TransportResponse>;
}

/** A relay token handed to this process's own repository with one request (audit-actor.ts). */
export interface RelayedActor {
  readonly token: string;
  /** Once the request is answered or failed; the token then redeems to nothing. */
  release(): void;
}

/** Which transport a client's root should use: undefined for "over HTTP, as always". */
export interface LocalRoutes {
  transportFor(root: RepositoryRoot): UpstreamTransport | undefined;
  /**
   * A token for the current actor, for a request over loopback HTTP to `origin` when that is this
   * process's own (an upload, which does not go in process); undefined otherwise.
   */
  relayActor?(origin: string): RelayedActor | undefined;
}

/** What this module needs of the Fastify app (structurally: no Fastify import outside the HTTP layer). */
export interface InjectTarget {
  inject(options: {
    method: string;
    url: string;
    headers: Record<string, string>;
    payload?: string | Buffer;
    remoteAddress: string;
    payloadAsStream: true;
    /** light-my-request's schema check of these options; they are built here, always well formed. */
    validate: false;
  }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    stream(): Readable;
    raw: { res: { destroy(): void } };
  }>;
  /** The addresses the server listens on (empty before `listen`). */
  addresses(): readonly ({ address: string; family: string; port: number } | string)[];
}

/**
 * The peer address every in-process request shows the embedded repository: the unspecified address,
 * which no real TCP client can have. The repository's failed-authentication throttle, keyed by address,
 * so counts the service's own calls apart from every real client: a local script guessing passwords
 * over TCP no longer locks out the service's views, and a view with wrong credentials is still
 * throttled (under this key). A valid IP address, so `clientKey` reads it cheaply.
 */
export const IN_PROCESS_ADDRESS = '0.0.0.0';

const LOOPBACK_V4 = '127.0.0.1';
const LOOPBACK_V6 = '[::1]';

/**
 * The embedded repository of THIS process as a transport for the adapters (issue 10): a view whose root
 * is this process's `/rest/` is answered by `app.inject` — the same Fastify instance, the same `/rest`
 * plugin with its Basic auth, throttle, hooks, error handler and request log — without a TCP round
 * trip to itself. Anything else (another host or port, https, CSS, a path outside `/rest/`) gets no
 * transport and goes over HTTP exactly as before.
 *
 * "This process" is decided from what the process knows, never from the view: the origins a TCP
 * request from here would reach this very server on — the address:port it listens on (a wildcard
 * listener: 127.0.0.1 and [::1] on its port) — and the configured public URL (declared by the operator
 * to be this service). Only `http:` origins qualify, because an in-process request reaches the
 * repository as plain http and the repository names its resources after the scheme and Host it is
 * addressed with. So an attacker-controlled root can only reach, in process, what it could already
 * reach over loopback: this process's `/rest/`, through the same authentication.
 */
export class InProcessRepository implements LocalRoutes {
  /** Requests answered in process so far (tests count them). */
  dispatched = 0;
  private target: InjectTarget | undefined;
  private readonly mount: string;
  private readonly publicOrigin: string | undefined;
  private listening: ReadonlySet<string> | undefined;
  private readonly relay: ActorRelay | undefined;

  constructor(options: { publicUrl: string; mount: string; relay?: ActorRelay }) {
    this.relay = options.relay;
    this.mount = options.mount.endsWith('/') ? options.mount : `${options.mount}/`;
    let publicOrigin: string | undefined;
    try {
      const url = new URL(options.publicUrl);
      if (url.protocol === 'http:') publicOrigin = url.origin;
    } catch {
      publicOrigin = undefined;
    }
    this.publicOrigin = publicOrigin;
  }

  /** Binds the app once it exists (app.ts builds the adapters' factory before the app). */
  attach(target: InjectTarget): void {
    this.target = target;
  }

  /** Detaches on close: from then on nothing is answered in process. */
  detach(): void {
    this.target = undefined;
    this.listening = undefined;
  }

  transportFor(root: RepositoryRoot): UpstreamTransport | undefined {
    if (this.target === undefined || !root.path.startsWith(this.mount)) return undefined;
    if (!this.isOwnOrigin(root.origin)) return undefined;
    return { request: (request) => this.request(request) };
  }

  /** Whether a TCP request to `origin` (normalised by the URL parser) would reach this server. */
  isOwnOrigin(origin: string): boolean {
    if (!origin.startsWith('http://')) return false;
    if (origin === this.publicOrigin) return true;
    return this.listeningOrigins().has(origin);
  }

  /**
   * The current actor (the person a view writes for) handed to /rest with one request to this process's
   * own origin: /rest records the write under that person, in its database transaction. Nothing without
   * an actor, a relay, or for any other origin.
   */
  relayActor(origin: string): RelayedActor | undefined {
    const relay = this.relay;
    const actor = currentActor();
    if (relay === undefined || actor === undefined || !this.isOwnOrigin(origin)) return undefined;
    const token = relay.issue(actor);
    return {
      token,
      release: () => {
        relay.release(token);
      },
    };
  }

  /** The origins of the sockets the server listens on; kept once it listens (they do not change). */
  private listeningOrigins(): ReadonlySet<string> {
    if (this.listening !== undefined) return this.listening;
    const origins = new Set<string>();
    for (const bound of this.target?.addresses() ?? []) {
      if (typeof bound !== 'object') continue; // a Unix socket has no origin
      const { address, port } = bound;
      const wildcard = address === '0.0.0.0' || address === '::';
      const hosts = wildcard
        ? [LOOPBACK_V4, LOOPBACK_V6]
        : [address.includes(':') ? `[${address}]` : address];
      for (const host of hosts)
        origins.add(port === 80 ? `http://${host}` : `http://${host}:${String(port)}`);
    }
    if (origins.size > 0) this.listening = origins;
    return origins;
  }

  private async request(request: TransportRequest): Promise<TransportResponse> {
    const target = this.target;
    if (target === undefined)
      throw Object.assign(new Error('the service is closing'), { code: 'ECONNREFUSED' });
    if (!request.path.startsWith(this.mount)) {
      // Confinement already keeps every request under the root; this is a second lock on the door.
      throw new Error(`in-process request outside ${this.mount}`);
    }
    this.dispatched++;
    // The Host a socket would carry: the repository names resources after it.
    const sent: Record<string, string> = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => name.toLowerCase() !== ACTOR_RELAY_HEADER),
    );
    sent.host = new URL(request.origin).host;
    const relayed = this.relayActor(request.origin);
    if (relayed !== undefined) sent[ACTOR_RELAY_HEADER] = relayed.token;
    let response: Awaited<ReturnType<InjectTarget['inject']>>;
    try {
      const answer = target.inject({
        method: request.method,
        url: request.path,
        headers: sent,
        ...(request.body === null ? {} : { payload: request.body }),
        remoteAddress: IN_PROCESS_ADDRESS,
        payloadAsStream: true,
        validate: false,
      });
      response = await withTimeout(answer, request.responseTimeoutMs);
    } finally {
      // /rest redeems the token as its handler starts, before it answers: once the answer (or a
      // failure) is here, the token has served, and no token outlives its request.
      relayed?.release();
    }
    const headers: Record<string, string | string[] | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      headers[name] = typeof value === 'number' ? String(value) : value;
    }
    return {
      statusCode: response.statusCode,
      headers,
      body: idleLimited(response.stream(), request.responseTimeoutMs, () => {
        response.raw.res.destroy();
      }),
    };
  }
}

/** Headers within the response timeout, as undici's `headersTimeout` (same error code). */
function withTimeout<T extends { raw: { res: { destroy(): void } } }>(
  answer: Promise<T>,
  ms: number,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' }));
    }, ms);
    answer.then(
      (response) => {
        clearTimeout(timer);
        // An answer after the deadline is dropped; its handler sees a closed connection.
        if (late) response.raw.res.destroy();
        else resolve(response);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * The body as the client reads it: a pause longer than `ms` fails it like undici's `bodyTimeout`, and a
 * reader that stops early (destroy) closes the handler's response, as a cut connection would.
 */
function idleLimited(source: Readable, ms: number, hangUp: () => void): Readable {
  const body = new PassThrough();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      body.destroy(Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' }));
    }, ms);
  };
  arm();
  source.on('data', arm);
  source.on('error', (error) => {
    body.destroy(error);
  });
  source.pipe(body);
  body.once('close', () => {
    clearTimeout(timer);
    if (!source.readableEnded) {
      source.destroy();
      hangUp();
    }
  });
  source.once('end', () => {
    clearTimeout(timer);
  });
  return body;
}
