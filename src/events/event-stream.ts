import type { ServerResponse } from 'node:http';
import type { Principal } from '../auth/roles.js';
import type { AudienceCheck } from './event-audience.js';
import type { ServiceEvent } from './event-bus.js';
import type { DeliveredEvent, EventHub, Subscription } from './event-hub.js';

export interface EventStreamSettings {
  /** How often a `: keep-alive` comment is sent and the session behind the stream checked again. */
  readonly keepAliveMs: number;
}

export const DEFAULT_EVENT_STREAM_SETTINGS: EventStreamSettings = { keepAliveMs: 15_000 };

export interface EventStreamDependencies {
  readonly hub: EventHub;
  readonly audience: AudienceCheck;
  /** The session's owner as it is now; undefined once it was signed out, revoked or expired. */
  readonly session: (tokenHash: string) => Promise<Principal | undefined>;
  readonly settings: EventStreamSettings;
  /** Headers every response carries (the HTTP layer's security headers). */
  readonly headers: Readonly<Record<string, string>>;
  readonly now?: () => number;
}

/**
 * A client that reads slower than events come gets up to this much written ahead; beyond that its
 * stream ends, and it resumes with `Last-Event-ID` (memory stays bounded whatever the client does).
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** setTimeout's limit; a later expiry is caught by a later keep-alive's session check. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One `GET /events` response: Server-Sent Events, each an envelope, for as long as the client stays and
 * its session lives. Events are written one after another in the order this instance delivered them;
 * each is checked against the audience with the reader as of the last session check (a changed role
 * counts from then).
 */
export class EventStream {
  private reader: Principal;
  private queue: Promise<void> = Promise.resolve();
  private subscription: Subscription | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private expiry: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    private readonly response: ServerResponse,
    principal: Principal,
    private readonly deps: EventStreamDependencies,
    private readonly onEnd: (stream: EventStream) => void = () => undefined,
  ) {
    this.reader = principal;
  }

  /** Sends the headers, then what the client missed after `afterId`, then live events. */
  open(afterId: number | undefined): void {
    this.response.writeHead(200, {
      ...this.deps.headers,
      'content-type': 'text/event-stream; charset=utf-8',
      // A buffering proxy (nginx) would hold the events back.
      'x-accel-buffering': 'no',
    });
    // Flushes the headers at once, so the client knows it is connected before the first event.
    this.response.write(': connected\n\n');
    this.response.on('close', () => {
      this.end();
    });
    this.subscription = this.deps.hub.subscribe(
      (delivered) => {
        this.enqueue(delivered);
      },
      afterId,
      { client: true },
    );
    for (const delivered of this.subscription.missed) this.enqueue(delivered);
    this.keepAlive = setInterval(() => {
      this.write(': keep-alive\n\n');
      this.enqueueCheck();
    }, this.deps.settings.keepAliveMs);
    this.scheduleExpiry();
  }

  /** Ends the response (client gone, session ended, app closing); safe to call more than once. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.keepAlive);
    clearTimeout(this.expiry);
    this.subscription?.unsubscribe();
    this.response.end();
    this.onEnd(this);
  }

  private enqueue(delivered: DeliveredEvent): void {
    this.queue = this.queue
      .then(() => this.send(delivered))
      .catch(() => {
        this.end();
      });
  }

  private enqueueCheck(): void {
    this.queue = this.queue
      .then(() => this.checkSession())
      .catch(() => {
        this.end();
      });
  }

  private async send({ id, event }: DeliveredEvent): Promise<void> {
    if (this.ended || !(await this.deps.audience.allows(this.reader, event.audience))) return;
    this.write(`id: ${id}\nevent: ${event.channel}\ndata: ${JSON.stringify(eventEnvelope(event))}\n\n`);
  }

  private async checkSession(): Promise<void> {
    if (this.ended) return;
    const current = await this.deps.session(this.reader.tokenHash);
    if (current === undefined) {
      this.end();
      return;
    }
    this.reader = current;
    this.scheduleExpiry();
  }

  private scheduleExpiry(): void {
    clearTimeout(this.expiry);
    const left = this.reader.expiresAt - (this.deps.now?.() ?? Date.now());
    if (left > MAX_TIMER_MS) return;
    this.expiry = setTimeout(
      () => {
        this.end();
      },
      Math.max(0, left),
    );
  }

  private write(text: string): void {
    if (this.ended) return;
    if (this.response.writableLength > MAX_BUFFERED_BYTES) {
      this.end();
      return;
    }
    this.response.write(text);
  }
}

/** The envelope of an event, in http/envelope.ts's key order, with `action` and `id` filled in. */
export function eventEnvelope(event: ServiceEvent) {
  return {
    meta: { status: 'SUCCESS', action: event.action, message: event.message, id: event.id },
    payload: event.payload,
  };
}
