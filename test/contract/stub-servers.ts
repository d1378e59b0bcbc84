import http from 'node:http';
import net from 'node:net';

/**
 * Small loopback HTTP servers for the verification checks of the contract suite:
 * - `/plain/…`  answers 200 with an HTML page (a web server that is not a repository);
 * - `/locked/…` answers 401 with a Basic challenge whatever the credentials (a server refusing them);
 * - `/slow/…`   answers only after `slowMs` (timeouts);
 * - anything else 404.
 * `unreachable` is a loopback port nothing listens on.
 */
export interface StubServers {
  readonly base: string;
  readonly plainRoot: string;
  readonly lockedRoot: string;
  readonly slowRoot: string;
  readonly unreachableRoot: string;
  /** Authorization headers the stub received (to check what the client sends). */
  readonly authorizations: string[];
  close(): Promise<void>;
}

export async function startStubServers(slowMs = 2_000): Promise<StubServers> {
  const authorizations: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    const url = request.url ?? '/';
    if (request.headers.authorization !== undefined) authorizations.push(request.headers.authorization);
    if (url.startsWith('/plain/')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html><body><h1>Just a web page</h1></body></html>');
      return;
    }
    if (url.startsWith('/locked/')) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Basic realm="stub"' });
      response.end('Authentication required\n');
      return;
    }
    if (url.startsWith('/slow/')) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('late\n');
      }, slowMs);
      timers.add(timer);
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('Not here\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const unreachablePort = await closedPort();
  return {
    base,
    plainRoot: `${base}/plain/`,
    lockedRoot: `${base}/locked/`,
    slowRoot: `${base}/slow/`,
    unreachableRoot: `http://127.0.0.1:${unreachablePort}/rest/`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** A loopback port that was just free (nothing listens on it). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}
