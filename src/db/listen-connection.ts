import pg from 'pg';

/** What the listening connection learnt when it (re)started listening. */
export interface ListeningInfo {
  /** The channel the `channelSql` named on this connection. */
  readonly channel: string;
  /** The connection's server process (tests end it to play a lost connection). */
  readonly backendPid: number | undefined;
}

export interface ListenConnectionSettings {
  readonly connectionString: string;
  /** The search_path option of the pool's connections, so the channel SQL sees the same schema. */
  readonly options?: string;
  /** Shown in pg_stat_activity, so operators (and tests) can tell the listeners apart. */
  readonly applicationName: string;
  /** An SQL expression naming the channel; computed by the server, as the notifying side does. */
  readonly channelSql: string;
  /** First delay before connecting again after a lost connection, doubled up to 30 s. */
  readonly retryMs?: number;
  /** Told when listening stops or comes back (never credentials: only the error's message). */
  readonly onTrouble?: (message: string) => void;
  /** The message for a lost connection, given the reason. */
  readonly lostMessage: (why: string) => string;
  /** The message once listening again after a loss; none when the owner has nothing to say. */
  readonly backMessage?: string;
}

export interface ListenConnectionCallbacks {
  /** Every notification on the channel, this session's own included. */
  readonly onNotification: (payload: string) => void;
  /** Each time listening starts, the first time and after every reconnection. */
  readonly onListening?: (info: ListeningInfo) => void;
  /** The connection was lost (not closed): whatever waited on it will never hear back. */
  readonly onLost?: () => void;
}

const FIRST_RETRY_MS = 500;
const LONGEST_RETRY_MS = 30_000;

/**
 * One PostgreSQL connection that LISTENs on a channel and keeps doing so: when it is lost it says so
 * through `onTrouble` and connects again, with a delay that doubles up to 30 s, until closed. The change
 * feed and the event bus each own one; a pooled connection cannot listen, since notifications go to
 * the session that asked for them.
 */
export class ListenConnection {
  private client: pg.Client | undefined;
  private listening = false;
  private lostOnce = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delayMs: number;
  private channel = '';

  constructor(
    private readonly settings: ListenConnectionSettings,
    private readonly callbacks: ListenConnectionCallbacks,
  ) {
    this.delayMs = settings.retryMs ?? FIRST_RETRY_MS;
  }

  /** Whether notifications currently arrive. */
  get isListening(): boolean {
    return this.listening;
  }

  /** Connects and listens; resolves once listening, or once the first attempt failed (then retries). */
  async start(): Promise<void> {
    if (this.closed || this.client !== undefined) return;
    const { settings } = this;
    const client = new pg.Client({
      connectionString: settings.connectionString,
      ...(settings.options === undefined ? {} : { options: settings.options }),
      connectionTimeoutMillis: 10_000,
      application_name: settings.applicationName,
    });
    this.client = client;
    client.on('notification', ({ payload = '' }) => {
      this.callbacks.onNotification(payload);
    });
    client.on('error', (error) => {
      this.lost(client, error.message);
    });
    client.on('end', () => {
      this.lost(client, 'connection ended');
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string; pid: number }>(
        `select ${settings.channelSql} as channel, pg_backend_pid() as pid`,
      );
      const channel = rows[0]?.channel ?? '';
      // The last statement of the session: pg_stat_activity shows it, which is how tests find listeners.
      await client.query(`listen ${client.escapeIdentifier(channel)}`);
      if (this.client !== client) return;
      this.channel = channel;
      this.callbacks.onListening?.({ channel, backendPid: rows[0]?.pid });
      this.listening = true;
      this.delayMs = settings.retryMs ?? FIRST_RETRY_MS;
      if (this.lostOnce && settings.backMessage !== undefined) settings.onTrouble?.(settings.backMessage);
    } catch (error) {
      this.lost(client, error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Sends a notification from this session on its own channel; it comes back to `onNotification`
   * after every notification of transactions committed before (PostgreSQL delivers in commit order).
   * Does nothing while not listening.
   */
  async notifySelf(payload: string): Promise<void> {
    const client = this.client;
    if (!this.listening || client === undefined) return;
    await client.query('select pg_notify($1, $2)', [this.channel, payload]);
  }

  /** Stops listening for good; later losses are not reported and nothing reconnects. */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) await client.end().catch(() => undefined);
  }

  private lost(client: pg.Client, message: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    void client.end().catch(() => undefined);
    this.callbacks.onLost?.();
    if (this.closed) return;
    this.lostOnce = true;
    this.settings.onTrouble?.(this.settings.lostMessage(message));
    this.retryTimer = setTimeout(() => void this.start(), this.delayMs);
    this.retryTimer.unref();
    this.delayMs = Math.min(this.delayMs * 2, LONGEST_RETRY_MS);
  }
}
