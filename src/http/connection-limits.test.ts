import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../config/config.js';
import { buildTestApp, type TestApp } from '../../test/support/test-app.js';

/**
 * Slow clients against a real listening server (inject() has no sockets): each limit is set small and
 * the others large, so the test shows which one closes the connection.
 */
const LARGE = { idleTimeoutSeconds: 300, headersTimeoutSeconds: 300, requestTimeoutSeconds: 0 };
/** How long a test waits for the server to act before calling the connection "still open". */
const PATIENCE_MS = 10_000;

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function listen(overrides: Partial<Config>): Promise<number> {
  t = await buildTestApp({ ...LARGE, ...overrides });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

interface Client {
  readonly socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with 'closed' when the server closes the connection, or 'still open' after PATIENCE_MS. */
  outcome(): Promise<'closed' | 'still open'>;
}

function connect(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let data = '';
    const closed = new Promise<'closed'>((done) => {
      socket.once('close', () => {
        done('closed');
      });
    });
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    // A refused connection may reset; the outcome is what the test looks at.
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve({
        socket,
        received: () => data,
        outcome: () =>
          Promise.race([
            closed,
            new Promise<'still open'>((done) =>
              setTimeout(() => {
                done('still open');
              }, PATIENCE_MS),
            ),
          ]),
      });
    });
    socket.once('error', reject);
  });
}

/** Writes `text` one byte at a time, every `everyMs`, until the socket closes. */
function trickle(socket: net.Socket, text: string, everyMs: number): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) {
      clearInterval(timer);
      return;
    }
    socket.write(text[index]!);
    index += 1;
  }, everyMs);
}

async function untilResponse(client: Client): Promise<string> {
  for (let i = 0; i < 200 && !client.received().includes('\r\n\r\n'); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return client.received();
}

const LOGIN_HEAD =
  'POST /auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';

describe('slow clients', () => {
  it('closes a connection whose body stalls after one byte (idle timeout)', async () => {
    const port = await listen({ idleTimeoutSeconds: 1 });
    const client = await connect(port);
    client.socket.write(`${LOGIN_HEAD}{`);
    expect(await client.outcome()).toBe('closed');
  });

  it('closes a connection whose body trickles in for longer than the request timeout', async () => {
    const port = await listen({ requestTimeoutSeconds: 2, headersTimeoutSeconds: 1 });
    const client = await connect(port);
    client.socket.write(LOGIN_HEAD);
    // One byte every 100 ms keeps the connection busy, so only the request timeout can end it.
    trickle(client.socket, `{"username":"${'a'.repeat(60)}","password":"p"}`.padEnd(100, ' '), 100);
    expect(await client.outcome()).toBe('closed');
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose headers trickle in for longer than the headers timeout', async () => {
    const port = await listen({ headersTimeoutSeconds: 1 });
    const client = await connect(port);
    trickle(
      client.socket,
      `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(200)}\r\n`,
      100,
    );
    expect(await client.outcome()).toBe('closed');
    expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const port = await listen({ keepAliveTimeoutSeconds: 1 });
    const client = await connect(port);
    client.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await untilResponse(client)).toMatch(/^HTTP\/1\.1 200/);
    expect(await client.outcome()).toBe('closed');
  });
});

describe('the connection cap', () => {
  it('refuses the connection over SCRIPTORIUM_MAX_CONNECTIONS and accepts again once one closes', async () => {
    const port = await listen({ maxConnections: 2 });
    const open: Client[] = [];
    for (let i = 0; i < 2; i += 1) {
      const client = await connect(port);
      client.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await untilResponse(client)).toMatch(/^HTTP\/1\.1 200/);
      open.push(client);
    }
    const third = await connect(port);
    third.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await third.outcome()).toBe('closed');
    expect(third.received()).toBe('');

    open[0]!.socket.destroy();
    const server = t!.app.server;
    for (let i = 0; i < 200; i += 1) {
      const count = await new Promise<number>((resolve, reject) => {
        server.getConnections((error, n) => {
          if (error) reject(error);
          else resolve(n);
        });
      });
      if (count < 2) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const fourth = await connect(port);
    fourth.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(await untilResponse(fourth)).toMatch(/^HTTP\/1\.1 200/);
    for (const client of [...open, third, fourth]) client.socket.destroy();
  });
});
