import { sql, type Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { ListenConnection } from '../db/listen-connection.js';
import type { EventBus, ServiceEvent } from './event-bus.js';
import type { EventHub } from './event-hub.js';
import { fitted, fromWire, toWire } from './event-wire.js';

/**
 * The channel events are notified on: one per schema, like the change feed's (db/postgres-change-feed.ts),
 * so instances on other schemas of the same database (tests, other tenants) never see each other's events.
 */
const EVENT_CHANNEL_SQL = `'scriptorium_events_' || left(md5(current_schema()), 16)`;

export interface PostgresEventBusOptions {
  readonly connectionString: string;
  /** The search_path option of the pool's connections, so both sides name the same channel. */
  readonly options?: string;
  /** First delay before listening again after a lost connection, doubled up to 30 s. */
  readonly retryMs?: number;
  /** Told when listening stops or comes back, and when a notification could not be sent (no credentials). */
  readonly onTrouble?: (message: string) => void;
}

/**
 * PostgreSQL: every instance delivers its own events at once, in process, and sends them with
 * `pg_notify`; one LISTEN connection per instance delivers the other instances' events (its own come
 * back too and are recognised by their origin, so each is delivered exactly once). Notifications are
 * sent one after another, so an instance's events reach the others in the order it published them.
 * While the LISTEN connection is down (it reconnects, and says so in the log) other instances' events
 * are lost for this instance's subscribers; its own still reach them.
 */
export class PostgresEventBus implements EventBus {
  private readonly origin = randomUUID();
  private readonly connection: ListenConnection;
  private closed = false;
  /** The notification being sent: the next waits for it, to keep this instance's order. */
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly hub: EventHub,
    private readonly settings: PostgresEventBusOptions,
  ) {
    this.connection = new ListenConnection(
      {
        ...settings,
        applicationName: 'scriptorium events',
        channelSql: EVENT_CHANNEL_SQL,
        lostMessage: (why) =>
          `event notifications lost (${why}); other instances' events miss this one's subscribers until they are back`,
        backMessage: 'event notifications are back',
      },
      {
        onNotification: (payload) => {
          const message = fromWire(payload);
          // Our own events were delivered when they were published.
          if (message !== undefined && message.origin !== this.origin) this.hub.deliver(message.event);
        },
      },
    );
  }

  publish(event: ServiceEvent): void {
    this.hub.deliver(fitted(event));
    if (this.closed) return;
    const text = toWire(this.origin, event);
    if (text === undefined) {
      this.settings.onTrouble?.(
        `event ${event.action} on ${event.channel} is too large to send to other instances`,
      );
      return;
    }
    this.sending = this.sending
      .then(() => sql`select pg_notify(${sql.raw(EVENT_CHANNEL_SQL)}, ${text})`.execute(this.db))
      .then(
        () => undefined,
        (error: unknown) => {
          if (this.closed) return;
          const why = error instanceof Error ? error.message : String(error);
          this.settings.onTrouble?.(
            `event ${event.action} on ${event.channel} not sent to other instances: ${why}`,
          );
        },
      );
  }

  /** Whether other instances' events currently arrive. */
  get isListening(): boolean {
    return this.connection.isListening;
  }

  /** Connects and listens; resolves once listening, or once the first attempt failed (then retries). */
  start(): Promise<void> {
    return this.connection.start();
  }

  /** Stops listening; waits for the notification being sent (the pool closes after this). */
  async close(): Promise<void> {
    this.closed = true;
    const closing = this.connection.close();
    await this.sending;
    await closing;
  }
}
