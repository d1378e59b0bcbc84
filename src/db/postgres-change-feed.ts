import pg from 'pg';
import { isPlainSelect, type DataVersion } from './data-version.js';

/**
 * The channel the change triggers notify on (migration 007): one per schema, so instances on other
 * schemas of the same database (tests, other tenants) do not wake each other. Hashed, because a
 * channel name may not exceed 63 bytes. The same expression is used by the trigger function.
 */
export const CHANGE_CHANNEL_SQL = `'scriptorium_' || left(md5(current_schema()), 16)`;

const BARRIER = 'barrier:';

export interface ChangeFeedOptions {
  readonly connectionString: string;
  /** The search_path option the pool's connections get, so the feed listens on the same schema. */
  readonly options?: string;
  /** First delay before reconnecting a lost listener, doubled up to 30 s. */
  readonly retryMs?: number;
  /** Told why listening stopped (never credentials: only the error's message). */
  readonly onTrouble?: (message: string) => void;
}

/**
 * PostgreSQL's "nothing changed" signal for the caches of `VersionedCache`: a counter that moves
 * - when this process completes a writing statement or a commit (`noteStatement`, from Kysely's query
 *   log), so a request that follows a write of this instance never reads a kept value, and
 * - when PostgreSQL delivers a notification of the change triggers, sent at the commit of any
 *   transaction that wrote to a notifying table, by any instance or tool.
 * A second instance therefore sees a write as soon as PostgreSQL delivers the notification (it is sent
 * at commit, before the writer's client hears of it). While the listening connection is not up, the
 * token is undefined: nothing is kept and every read goes to the database.
 */
export class PostgresChangeFeed implements DataVersion {
  /** The embedded repository's content tables notify too (migration 009). */
  readonly watchesRepository = true;
  private counter = 0;
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private delayMs: number;
  private channel = '';
  private barrierSeq = 0;
  private pid: number | undefined;
  private readonly barriers = new Map<string, () => void>();

  constructor(private readonly settings: ChangeFeedOptions) {
    this.delayMs = settings.retryMs ?? 500;
  }

  current(): Promise<string | undefined> {
    return Promise.resolve(this.currentNow());
  }

  currentNow(): string | undefined {
    return this.listening ? String(this.counter) : undefined;
  }

  /** Whether the listening connection is up (caches may keep reads). */
  get isListening(): boolean {
    return this.listening;
  }

  /** The listening connection's server process (tests end it to play a lost connection). */
  get backendPid(): number | undefined {
    return this.listening ? this.pid : undefined;
  }

  /** Kysely's query log calls this after every statement of this process. */
  noteStatement(sql: string): void {
    if (!isPlainSelect(sql)) this.counter++;
  }

  /** Connects and listens; resolves once listening, or once the first attempt failed (then retries). */
  async start(): Promise<void> {
    if (this.closed || this.client !== undefined) return;
    const client = new pg.Client({
      connectionString: this.settings.connectionString,
      ...(this.settings.options === undefined ? {} : { options: this.settings.options }),
      connectionTimeoutMillis: 10_000,
      application_name: 'scriptorium change feed',
    });
    this.client = client;
    client.on('notification', ({ payload = '' }) => {
      // The triggers send an empty payload; a barrier (`settled`) changes nothing.
      if (!payload.startsWith(BARRIER)) {
        this.counter++;
        return;
      }
      const release = this.barriers.get(payload);
      this.barriers.delete(payload);
      release?.();
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
        `select ${CHANGE_CHANNEL_SQL} as channel, pg_backend_pid() as pid`,
      );
      this.channel = rows[0]?.channel ?? '';
      this.pid = rows[0]?.pid;
      await client.query(`listen ${client.escapeIdentifier(this.channel)}`);
      if (this.client !== client) return;
      // Anything may have changed while nobody listened.
      this.counter++;
      this.listening = true;
      this.delayMs = this.settings.retryMs ?? 500;
    } catch (error) {
      this.lost(client, error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Resolves once every change committed before the call has been seen: a notification sent now comes
   * back after all notifications of earlier commits (PostgreSQL delivers them in commit order). Tests
   * use it to ask another instance's question at the earliest moment the feed guarantees.
   */
  async settled(): Promise<void> {
    const client = this.client;
    if (!this.listening || client === undefined) return;
    const token = `${BARRIER}${process.pid}:${++this.barrierSeq}`;
    const seen = new Promise<void>((resolve) => this.barriers.set(token, resolve));
    // A listening session hears its own notifications too; the channel is hex, the token digits.
    await client.query(`select pg_notify('${this.channel}', '${token}')`);
    await seen;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    for (const release of this.barriers.values()) release();
    this.barriers.clear();
    if (client !== undefined) await client.end().catch(() => undefined);
  }

  private lost(client: pg.Client, message: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    void client.end().catch(() => undefined);
    for (const release of this.barriers.values()) release();
    this.barriers.clear();
    if (this.closed) return;
    this.settings.onTrouble?.(`change notifications lost (${message}); caching is off until they are back`);
    this.retryTimer = setTimeout(() => void this.start(), this.delayMs);
    this.retryTimer.unref();
    this.delayMs = Math.min(this.delayMs * 2, 30_000);
  }
}
