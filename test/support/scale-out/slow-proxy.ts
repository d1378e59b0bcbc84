import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of one service instance at a time, which holds every request `delayMs` before
 * passing it on: the "slowed upstream" that keeps a curation job running long enough to be cut short,
 * and the single origin (like a load balancer's) that a repository view names whichever instance answers.
 * The Host header is passed on unchanged, so the embedded repository names its resources after the
 * proxy's origin on every instance. `target` may be changed between requests.
 */
export interface SlowProxy {
  readonly url: string;
  target: string;
  /** Requests passed on so far (tests count them). */
  readonly forwarded: number;
  close(): Promise<void>;
}

export async function startSlowProxy(target: string, delayMs: number): Promise<SlowProxy> {
  let forwarded = 0;
  const state = { target };
  const server = http.createServer((request, response) => {
    setTimeout(() => {
      forwarded++;
      const upstream = new URL(request.url ?? '/', state.target);
      const outgoing = http.request(
        upstream,
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      outgoing.on('error', () => {
        // The instance behind it was killed: the caller sees what a load balancer would answer.
        if (!response.headersSent) response.writeHead(502).end();
        else response.destroy();
      });
      request.pipe(outgoing);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get target() {
      return state.target;
    },
    set target(value: string) {
      state.target = value;
    },
    get forwarded() {
      return forwarded;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
