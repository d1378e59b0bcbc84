import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * What the receiver does with a request: answer this status, never answer (a timeout), or answer 200 with
 * a body that never ends (an attack on the sender's memory).
 */
export type ReceiverAnswer = number | 'hang' | 'flood';

export interface WebhookReceiver {
  readonly url: string;
  /** Every request, answered or not, in arrival order. */
  readonly received: ReceivedHook[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver (node:http on an ephemeral port) for webhook tests: the n-th request gets the n-th
 * answer of `answers`, and every later one the last.
 */
export async function startWebhookReceiver(
  answers: readonly ReceiverAnswer[] = [200],
): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
      const answer = answers[Math.min(received.length, answers.length) - 1] ?? 200;
      if (answer === 'hang') return;
      if (answer === 'flood') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(16 * 1024, 120);
        const pour = (): void => {
          if (response.destroyed || response.writableEnded) return;
          // Waits for the socket to drain: the flood stops when the client stops reading.
          if (response.write(chunk)) setImmediate(pour);
          else response.once('drain', pour);
        };
        pour();
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor: (count) =>
      received.length >= count
        ? Promise.resolve()
        : new Promise((resolve) => {
            waiters.push({ count, resolve });
          }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
