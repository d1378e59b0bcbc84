import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** Where a listening app answers. */
export function baseUrlOf(app: FastifyInstance): string {
  return `http://127.0.0.1:${String((app.server.address() as AddressInfo).port)}`;
}

/** One Server-Sent Events message: an event (id, event, data) or a comment. */
export interface SseMessage {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
}

export interface EventEnvelope {
  meta: { status: string; action: string; message: string; id: string };
  payload: Record<string, unknown>;
}

/** A client of `GET /events` that keeps every message it received, in order. */
export class SseClient {
  readonly messages: SseMessage[] = [];
  /** Resolves when the server ended the stream (or the client closed it). */
  readonly ended: Promise<void>;
  private readonly waiters = new Set<() => void>();
  private done = false;

  private constructor(
    private readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.ended = this.read().finally(() => {
      this.done = true;
      this.wake();
    });
  }

  /** Opens the stream; throws with the body when the answer is not a stream (status 200). */
  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    if (response.status !== 200)
      throw new Error(`GET /events answered ${response.status}: ${await response.text()}`);
    return new SseClient(response, abort);
  }

  get events(): (SseMessage & { envelope: EventEnvelope })[] {
    return this.messages
      .filter((message) => message.data !== undefined)
      .map((message) => ({ ...message, envelope: JSON.parse(message.data ?? '') as EventEnvelope }));
  }

  get headers(): Headers {
    return this.response.headers;
  }

  get isEnded(): boolean {
    return this.done;
  }

  /** The first message (from the start) matching, waiting up to `timeoutMs` for it. */
  async waitFor(match: (message: SseMessage) => boolean, timeoutMs = 5_000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found !== undefined) return found;
      if (this.done)
        throw new Error(`stream ended without the message; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no such message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** The first event whose envelope matches (e.g. a marker sent after what must not arrive). */
  async waitForEvent(
    match: (envelope: EventEnvelope, event: string | undefined) => boolean,
    timeoutMs?: number,
  ) {
    const message = await this.waitFor(
      (m) => m.data !== undefined && match(JSON.parse(m.data) as EventEnvelope, m.event),
      timeoutMs,
    );
    return { ...message, envelope: JSON.parse(message.data ?? '') as EventEnvelope };
  }

  close(): void {
    this.abort.abort();
  }

  private async read(): Promise<void> {
    const reader = this.response.body?.getReader();
    if (reader === undefined) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          this.messages.push(parseMessage(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        this.wake();
      }
    } catch {
      // Aborted by close(), or the connection dropped: the stream has ended either way.
    }
  }

  private wake(): void {
    for (const wake of [...this.waiters]) wake();
  }
}

function parseMessage(block: string): SseMessage {
  const fields: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) return { comment: line.slice(1).trim() };
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    fields[name] = fields[name] === undefined ? value : `${fields[name]}\n${value}`;
  }
  return fields;
}
