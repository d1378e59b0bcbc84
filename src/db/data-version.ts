import type SqliteDatabase from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { EndOfTurn } from '../shared/end-of-turn.js';

/**
 * Tells whether anything may have been written to the database since an earlier look, so a read can
 * be kept until then. Nothing is kept longer than "nothing changed": the token is read from the
 * database on every use, never assumed.
 */
export interface DataVersion {
  /**
   * A token equal to an earlier one only if no data and no schema changed in between, by this process
   * or any other; undefined when the database cannot tell cheaply (then nothing may be kept).
   */
  current(): Promise<string | undefined>;
  /**
   * The same token, answered without a promise, by a signal that needs no I/O to read it (both of ours);
   * absent when only `current` can tell. Lets the hottest lookup (the caller's session) finish in the
   * turn it started.
   */
  currentNow?(): string | undefined;
  /**
   * A request has started: whatever it reads must be at least as new as this moment. Until the next
   * request starts, a signal may answer what it last read from the database.
   */
  requestStarted?(): void;
  /**
   * Calls `then` once the signal's answer is at least as new as the start of every request so far, at
   * the end of the current turn of the event loop at the latest, together with every other request
   * received in the turn (EndOfTurn). Absent when the signal cannot tell (then nothing is kept anyway).
   */
  whenFresh?(then: () => void): void;
  /**
   * Whether the token also moves when another instance commits to the embedded repository's tables
   * (`repo_*`), so reads of the repository itself may be kept (the context render cache). SQLite: yes
   * (data_version sees every commit to the file); PostgreSQL: yes, by the triggers of migration 009.
   */
  readonly watchesRepository?: boolean;
  /**
   * Calls `listener` soon after the token may have moved (at the end of the turn, once for any number of
   * changes in it), so work that follows the database (the search feed) need not poll; returns the way to
   * stop. SQLite: after every statement of this process that may write (its commits included); another
   * process's commits are only seen by reading `current`. PostgreSQL: whenever a change notification
   * arrives (sent at the commit of a write to a notifying table, by any instance) and when listening
   * starts again. Absent when the signal tells nobody: then only polling `current` sees changes.
   */
  onChange?(listener: () => void): () => void;
}

/**
 * The listeners of `DataVersion.onChange`: `notify` may be called on the hottest path (every statement),
 * so it costs a size check when nobody listens, and the listeners run once at the end of the turn.
 */
export class ChangeListeners {
  private readonly listeners = new Set<() => void>();
  private scheduled = false;

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  notify(): void {
    if (this.listeners.size === 0 || this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.run);
  }

  private readonly run = (): void => {
    this.scheduled = false;
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  };
}

/**
 * SQLite's signal, in two parts:
 * - this process's own writes: a counter moved by Kysely's query log after every statement that is not
 *   a plain SELECT (writes, DDL, commits and rollbacks), so it can only move too often, never too rarely;
 *   Kysely's SQLite driver has one connection, so that is every statement of the process;
 * - everybody else's commits: `PRAGMA data_version`, which changes whenever another connection (a
 *   second instance, the CLI) commits to the file, read with a statement prepared once.
 * The pragma is read directly, not through Kysely: it is a read of the connection's own counter, fine
 * inside an open transaction (at worst it makes the next lookup miss); if the connection refuses (it
 * is busy iterating a statement), the answer is "unknown" and nothing is kept.
 *
 * How often the pragma is read: a request must see every commit made before it started (a logout on
 * another instance takes effect at once), so a value read before a request started is not good enough
 * for it. Under load one read per request cost about a tenth of a short request's CPU (each read takes
 * and releases the WAL read lock, two system calls). So requests wait for the value (`whenFresh`, before
 * their access check) and one read at the end of the turn in which they were received (EndOfTurn, after
 * the turn's socket reads) serves every request received in that turn: it is newer than each of them.
 * A read is forgotten by the end of the next turn, so work that is not a request (a job, a timer) never
 * uses one older than that.
 */
export class SqliteDataVersion implements DataVersion {
  readonly watchesRepository = true;
  private own = 0;
  private readonly others: SqliteDatabase.Statement<[], number>;
  /** `data_version` as last read; undefined once forgotten (read again at the next need). */
  private othersSeen: number | undefined;
  /** Whether `othersSeen` was read after the latest request started. */
  private seenSinceRequest = false;
  private forgetting = false;
  /** The requests waiting for a read newer than their start (`whenFresh`), served by one read. */
  private readonly waiting = new EndOfTurn(() => {
    try {
      this.readOthers();
    } catch {
      this.othersSeen = undefined; // each waiting request goes on; nothing is kept (currentNow)
    }
  });

  private readonly changes = new ChangeListeners();

  constructor(sqlite: SqliteDatabase.Database) {
    this.others = sqlite.prepare<[], number>('pragma data_version').pluck();
  }

  noteStatement(sql: string): void {
    if (isPlainSelect(sql)) return;
    this.own++;
    this.changes.notify();
  }

  onChange(listener: () => void): () => void {
    return this.changes.add(listener);
  }

  current(): Promise<string | undefined> {
    return Promise.resolve(this.currentNow());
  }

  currentNow(): string | undefined {
    try {
      if (this.othersSeen === undefined || !this.seenSinceRequest) this.readOthers();
      return `${this.own}:${this.othersSeen ?? ''}`;
    } catch {
      return undefined;
    }
  }

  requestStarted(): void {
    this.seenSinceRequest = false;
  }

  whenFresh(then: () => void): void {
    if (this.seenSinceRequest && this.othersSeen !== undefined) {
      then();
      return;
    }
    this.waiting.add(then);
  }

  private readOthers(): void {
    this.othersSeen = this.others.get();
    this.seenSinceRequest = true;
    if (!this.forgetting) {
      this.forgetting = true;
      setImmediate(this.forget);
    }
  }

  private readonly forget = (): void => {
    this.forgetting = false;
    this.othersSeen = undefined;
  };
}

/** Statements that cannot change data or schema; anything else moves the counters. */
export function isPlainSelect(sql: string): boolean {
  return /^\s*select\b/i.test(sql);
}

/**
 * For a database whose changes nobody reports: reads are never kept. (PostgreSQL's is the change
 * feed of `postgres-change-feed.ts`, fed by LISTEN/NOTIFY.)
 */
export const UNKNOWN_DATA_VERSION: DataVersion = { current: () => Promise.resolve(undefined) };

const versions = new WeakMap<object, DataVersion>();

/** Called by connectDatabase for the instances it creates. */
export function registerDataVersion<DB>(db: Kysely<DB>, version: DataVersion): void {
  versions.set(db, version);
}

/** The DataVersion of a database opened by connectDatabase; any other instance never keeps reads. */
export function dataVersionOf<DB>(db: Kysely<DB>): DataVersion {
  return versions.get(db) ?? UNKNOWN_DATA_VERSION;
}

/**
 * Values read from the database, each kept while the DataVersion token stays what it was when the value
 * was read, and dropped all together when it moves. The token is read *before* the value, so a kept
 * value is never older than its token: a write racing with the read can only make the next lookup miss.
 * Each value comes from one read, so it is as consistent as that read was.
 */
export class VersionedCache<K extends string | number, V extends string | number | boolean | object> {
  private token: string | undefined;
  private readonly entries: LRUCache<K, V>;

  constructor(
    private readonly version: DataVersion,
    capacity = 1,
    /**
     * Also bounds the values' total size as `sizeOf` estimates it; a value over a quarter is not kept, so
     * `sizeOf` may stop counting once past `limit` (that quarter).
     */
    budget?: { readonly maxSize: number; readonly sizeOf: (value: V, limit: number) => number },
  ) {
    if (budget === undefined) {
      this.entries = new LRUCache({ max: capacity });
      return;
    }
    const maxEntrySize = Math.max(1, Math.floor(budget.maxSize / 4));
    this.entries = new LRUCache({
      max: capacity,
      maxSize: budget.maxSize,
      maxEntrySize,
      sizeCalculation: (value) => Math.max(1, budget.sizeOf(value, maxEntrySize)),
    });
  }

  /** The total size of the values kept, as `budget.sizeOf` estimated it (0 without a budget). */
  get keptSize(): number {
    return this.entries.calculatedSize;
  }

  /** The number of values kept (for tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The value kept for `key`, answered at once, or undefined when none is kept under the current token
   * or the token cannot be read without waiting (then use `find` or `get`). Never reads the value.
   */
  peek(key: K): V | undefined {
    const token = this.version.currentNow?.();
    if (token === undefined) return undefined;
    this.moveTo(token);
    return this.entries.get(key);
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    return (await this.find(key, load)) as V;
  }

  /** Like `get`, for a read that may find nothing: a miss is not kept (the next lookup reads again). */
  async find(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const token = await this.version.current();
    if (token === undefined) return load();
    this.moveTo(token);
    const kept = this.entries.get(key);
    if (kept !== undefined) return kept;
    const value = await load();
    // Another lookup may have seen a newer token meanwhile; this value may predate it, so keep it only
    // under the token it was read after.
    if (value !== undefined && this.token === token) this.entries.set(key, value);
    return value;
  }

  /** Everything kept was read under an older token once the token moved: dropped all together. */
  private moveTo(token: string): void {
    if (token === this.token) return;
    this.entries.clear();
    this.token = token;
  }
}
