import { EndOfTurn } from '../shared/end-of-turn.js';
import { ChangeListeners, isPlainSelect, type DataVersion } from './data-version.js';
import { ListenConnection } from './listen-connection.js';

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
  private barrierSeq = 0;
  private pid: number | undefined;
  private readonly barriers = new Map<string, () => void>();
  private readonly connection: ListenConnection;
  private readonly endOfTurn = new EndOfTurn();
  private readonly changes = new ChangeListeners();

  constructor(settings: ChangeFeedOptions) {
    this.connection = new ListenConnection(
      {
        ...settings,
        applicationName: 'scriptorium change feed',
        channelSql: CHANGE_CHANNEL_SQL,
        lostMessage: (why) => `change notifications lost (${why}); caching is off until they are back`,
      },
      {
        onNotification: (payload) => {
          this.noticed(payload);
        },
        onListening: ({ backendPid }) => {
          this.pid = backendPid;
          // Anything may have changed while nobody listened.
          this.counter++;
          this.changes.notify();
        },
        onLost: () => {
          this.releaseBarriers();
        },
      },
    );
  }

  current(): Promise<string | undefined> {
    return Promise.resolve(this.currentNow());
  }

  currentNow(): string | undefined {
    return this.connection.isListening ? String(this.counter) : undefined;
  }

  /**
   * At the end of the turn the request was received in: the notifications received in that turn (a
   * logout committed elsewhere just before, say) are counted before its access check, whichever socket
   * was read first. Nothing is read; every request of the turn goes on together (EndOfTurn).
   */
  whenFresh(then: () => void): void {
    this.endOfTurn.add(then);
  }

  /** Whether the listening connection is up (caches may keep reads). */
  get isListening(): boolean {
    return this.connection.isListening;
  }

  /** The listening connection's server process (tests end it to play a lost connection). */
  get backendPid(): number | undefined {
    return this.connection.isListening ? this.pid : undefined;
  }

  /**
   * Told of every change notification (a commit by any instance, this one's included, to a notifying
   * table) and of listening starting again; not of this process's statements, which may not be committed
   * yet (their commit is notified).
   */
  onChange(listener: () => void): () => void {
    return this.changes.add(listener);
  }

  /** Kysely's query log calls this after every statement of this process. */
  noteStatement(sql: string): void {
    if (!isPlainSelect(sql)) this.counter++;
  }

  /** Connects and listens; resolves once listening, or once the first attempt failed (then retries). */
  start(): Promise<void> {
    return this.connection.start();
  }

  /**
   * Resolves once every change committed before the call has been seen: a notification sent now comes
   * back after all notifications of earlier commits (PostgreSQL delivers them in commit order). Tests
   * use it to ask another instance's question at the earliest moment the feed guarantees.
   */
  async settled(): Promise<void> {
    if (!this.connection.isListening) return;
    const token = `${BARRIER}${process.pid}:${++this.barrierSeq}`;
    const seen = new Promise<void>((resolve) => this.barriers.set(token, resolve));
    // A listening session hears its own notifications too.
    await this.connection.notifySelf(token);
    await seen;
  }

  async close(): Promise<void> {
    const closing = this.connection.close();
    this.releaseBarriers();
    await closing;
  }

  private noticed(payload: string): void {
    // The triggers send an empty payload; a barrier (`settled`) changes nothing.
    if (!payload.startsWith(BARRIER)) {
      this.counter++;
      this.changes.notify();
      return;
    }
    const release = this.barriers.get(payload);
    this.barriers.delete(payload);
    release?.();
  }

  private releaseBarriers(): void {
    for (const release of this.barriers.values()) release();
    this.barriers.clear();
  }
}
