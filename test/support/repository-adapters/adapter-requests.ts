import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { expect, vi } from 'vitest';

/**
 * The recording stub the `adapter-requests.*.test.ts` files hold each adapter's wire format against: a
 * loopback server that answers like Fedora 6 / a generic LDP server from a table of replies and records
 * every request it received.
 */
export interface Recorded {
  readonly line: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}
export interface Reply {
  status: number;
  headers?: Record<string, string | string[]>;
  body?: string;
}

const RECORDED_HEADERS = [
  'accept',
  'prefer',
  'content-type',
  'link',
  'slug',
  'atomic-id',
  'content-disposition',
  'if-match',
  'if-none-match',
  'digest',
];
export const LDP = 'http://www.w3.org/ns/ldp#';
export const TYPE_CONTAINER = [`<${LDP}Resource>; rel="type"`, `<${LDP}BasicContainer>; rel="type"`];
export const TYPE_BINARY = (describedby: string) => [
  `<${LDP}NonRDFSource>; rel="type"`,
  `<${describedby}>; rel="describedby"`,
];

export const turtle = (text: string): Reply => ({
  status: 200,
  headers: { 'content-type': 'text/turtle', link: TYPE_CONTAINER },
  body: text,
});

export class RecordingStub {
  /** A reply per `METHOD /path`; a list answers its replies in turn (the last one repeats). */
  routes: Record<string, Reply | Reply[]> = {};
  recorded: Recorded[] = [];
  /** Requests whose body had begun to arrive / that broke off before their end (`body` = what arrived). */
  receiving: string[] = [];
  aborted: Recorded[] = [];
  #base = '';
  readonly #server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    const line = `${request.method ?? ''} ${request.url ?? ''}`;
    const headers: Record<string, string> = {};
    for (const name of RECORDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    // The tables are read when a request arrives, so `reset` takes effect at once.
    request.on('data', (c: Buffer) => {
      if (chunks.length === 0) this.receiving.push(line);
      chunks.push(c);
    });
    request.on('error', () => {
      this.aborted.push({ line, headers, body: Buffer.concat(chunks).toString() });
    });
    request.on('end', () => {
      this.recorded.push({ line, headers, body: Buffer.concat(chunks).toString() });
      const route = this.routes[line];
      const reply = (Array.isArray(route) ? (route.length > 1 ? route.shift() : route[0]) : route) ?? {
        status: 404,
        body: 'not found',
      };
      response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      response.end(reply.body ?? '');
    });
  });

  static async start(): Promise<RecordingStub> {
    const stub = new RecordingStub();
    await new Promise<void>((resolve) => stub.#server.listen(0, '127.0.0.1', resolve));
    stub.#base = `http://127.0.0.1:${(stub.#server.address() as AddressInfo).port}`;
    return stub;
  }

  /** `http://127.0.0.1:<port>`, once started. */
  get base(): string {
    return this.#base;
  }

  /** Forgets the replies and everything recorded (before each test). */
  reset(): void {
    this.routes = {};
    this.recorded = [];
    this.receiving = [];
    this.aborted = [];
  }

  lines(): string[] {
    return this.recorded.map((r) => r.line);
  }

  /**
   * An upload body that sends `first`, then fails once the stub has begun to receive `line` (as the
   * context route fails an upload that goes over the size limit).
   */
  failingBody(line: string, first: string): Readable {
    const body = new PassThrough();
    body.write(first);
    void vi
      .waitFor(() => {
        expect(this.receiving).toContain(line);
      })
      .then(() => body.destroy(new Error('over the limit')));
    return body;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.#server.close(() => {
        resolve();
      }),
    );
  }
}
