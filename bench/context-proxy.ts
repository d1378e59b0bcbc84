import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the proxy forwarded. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, as the upstream saw them. */
  path: string;
  status: number;
  /** The headers that shape the answer (Accept, Prefer, Content-Type), for the report. */
  note: string;
}

/** A loopback HTTP proxy in front of one repository that records every request it forwards. */
export interface CountingProxy {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  readonly log: ProxiedRequest[];
  reset(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'host',
  'accept-encoding',
]);
const REWRITTEN_RESPONSE_HEADERS = new Set(['link', 'location', 'content-location']);

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    stream.on('error', reject);
  });
}

const textual = (type: string | undefined) =>
  type === undefined || /turtle|triples|quads|json|xml|sparql|text\/|link-format/i.test(type);

/**
 * Starts a proxy on a free loopback port that forwards to `targetOrigin` and makes itself look like the
 * repository: the upstream gets `Host` of the target, and the target's origin is swapped for the
 * proxy's in response headers (Link, Location) and RDF bodies — and the other way round in request
 * bodies (SPARQL Update) — so a repository view whose root is on the proxy sees consistent IRIs. It
 * buffers every body (fine for the small RDF documents of the benchmark; never for binaries) and is
 * only used while a single operation is being counted, never under load.
 */
export async function startCountingProxy(targetOrigin: string): Promise<CountingProxy> {
  const target = new URL(targetOrigin);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const log: ProxiedRequest[] = [];
  let origin = '';

  const server = http.createServer((req, res) => {
    void (async () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      let body = await readAll(req);
      if (body.length > 0 && textual(req.headers['content-type'])) {
        body = Buffer.from(body.toString('utf8').split(origin).join(target.origin));
      }
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      headers.host = target.host;
      if (body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method)) {
        headers['content-length'] = String(body.length);
      }
      const note = ['accept', 'prefer', 'content-type']
        .map((name) => {
          const value = req.headers[name];
          return value === undefined ? '' : `${name}: ${String(value)}`;
        })
        .filter((part) => part !== '')
        .join(' · ');
      const entry: ProxiedRequest = { method, path, status: 0, note };
      log.push(entry);
      const upstream = http.request(
        { host: target.hostname, port: target.port, method, path, headers, agent },
        (answer) => {
          void (async () => {
            entry.status = answer.statusCode ?? 0;
            let payload = await readAll(answer);
            if (payload.length > 0 && textual(answer.headers['content-type'])) {
              payload = Buffer.from(payload.toString('utf8').split(target.origin).join(origin));
            }
            const out: Record<string, string | string[]> = {};
            for (const [name, value] of Object.entries(answer.headers)) {
              if (value === undefined || HOP_BY_HOP.has(name)) continue;
              out[name] = REWRITTEN_RESPONSE_HEADERS.has(name)
                ? Array.isArray(value)
                  ? value.map((v) => v.split(target.origin).join(origin))
                  : value.split(target.origin).join(origin)
                : value;
            }
            if (method === 'HEAD' || entry.status === 204 || entry.status === 304) {
              const declared = answer.headers['content-length'];
              if (declared !== undefined) out['content-length'] = declared;
            } else {
              out['content-length'] = String(payload.length);
            }
            res.writeHead(entry.status, out);
            res.end(method === 'HEAD' ? undefined : payload);
          })().catch((error: unknown) => {
            res.destroy(error instanceof Error ? error : new Error(String(error)));
          });
        },
      );
      upstream.on('error', (error) => {
        res.destroy(error);
      });
      upstream.end(body);
    })().catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    log,
    reset: () => {
      log.length = 0;
    },
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
