import { sql } from 'kysely';
import type { RepoResourceRow } from './repository.table.js';
import { CompiledByLength, CompiledStatement, type Executor } from './compiled.js';

/** A locked path (the one asked about) and a tombstoned one (it or an ancestor); null for none. */
export interface Blockers {
  readonly locked: string | null;
  readonly tombstone: string | null;
}

/** The columns of repo_resources in one fixed order: the values of an insert or update, in that order. */
const RESOURCE_COLUMNS = [
  'path',
  'parent',
  'kind',
  'triples',
  'created',
  'created_by',
  'last_modified',
  'last_modified_by',
  'revision',
  'mime_type',
  'filename',
  'size',
  'sha512',
  'sha256',
] as const satisfies readonly (keyof RepoResourceRow)[];

/** The columns as stand-ins at positions 0… (compiled.ts). */
function columnsOf(at: (index: number) => never): RepoResourceRow {
  return Object.fromEntries(
    RESOURCE_COLUMNS.map((column, i) => [column, at(i)]),
  ) as unknown as RepoResourceRow;
}

function valuesOf(row: RepoResourceRow): unknown[] {
  return RESOURCE_COLUMNS.map((column) => row[column]);
}

/**
 * The statements every read and write of a resource runs (a create, a PATCH, a GET), compiled once per
 * database (compiled.ts). The same SQL the query builder wrote in place before; the rarer statements
 * (transactions, deletes, mementos) are still built where they run.
 */
export class RepositoryQueries {
  private readonly resource: CompiledStatement<RepoResourceRow>;
  private readonly childPaths: CompiledStatement<{ path: string }>;
  private readonly tombstones: CompiledByLength<{ path: string }>;
  private readonly lock: CompiledStatement<{ path: string; tx_id: string }>;
  private readonly lockOfOthers: CompiledStatement<{ path: string; tx_id: string }>;
  private readonly blockers: CompiledByLength<Blockers>;
  private readonly blockersOfOthers: CompiledByLength<Blockers>;
  private readonly bump: CompiledStatement<unknown>;
  private readonly insert: CompiledStatement<unknown>;
  private readonly digest: CompiledStatement<{ sha512: string | null }>;
  private readonly update: CompiledStatement<unknown>;

  constructor(db: Executor) {
    this.resource = CompiledStatement.of(1, (at) =>
      db.selectFrom('repo_resources').selectAll().where('path', '=', at(0)),
    );
    this.childPaths = CompiledStatement.of(1, (at) =>
      db.selectFrom('repo_resources').select('path').where('parent', '=', at(0)),
    );
    this.tombstones = new CompiledByLength(0, (_, paths) =>
      db.selectFrom('repo_tombstones').select('path').where('path', 'in', paths),
    );
    const locks = (now: never) =>
      db
        .selectFrom('repo_locks')
        .innerJoin('repo_transactions', 'repo_transactions.id', 'repo_locks.tx_id')
        .select(['repo_locks.path', 'repo_locks.tx_id'])
        .where('repo_transactions.state', '=', 'open')
        .where('repo_transactions.expires', '>', now);
    // Values: now, path.
    this.lock = CompiledStatement.of(2, (at) => locks(at(0)).where('repo_locks.path', '=', at(1)));
    // Values: now, owner, path.
    this.lockOfOthers = CompiledStatement.of(3, (at) =>
      locks(at(0)).where('repo_locks.tx_id', '!=', at(1)).where('repo_locks.path', '=', at(2)),
    );
    // A new resource's two checks in one statement. Values: now, [owner,] path, then self and ancestors.
    const lockedPath = (now: never) =>
      db
        .selectFrom('repo_locks')
        .innerJoin('repo_transactions', 'repo_transactions.id', 'repo_locks.tx_id')
        .select('repo_locks.path')
        .where('repo_transactions.state', '=', 'open')
        .where('repo_transactions.expires', '>', now);
    const tombstoned = (paths: readonly never[]) =>
      db.selectFrom('repo_tombstones').select('path').where('path', 'in', paths).limit(1).as('tombstone');
    this.blockers = new CompiledByLength(2, (at, paths) =>
      db.selectNoFrom([
        lockedPath(at(0)).where('repo_locks.path', '=', at(1)).limit(1).as('locked'),
        tombstoned(paths),
      ]),
    );
    this.blockersOfOthers = new CompiledByLength(3, (at, paths) =>
      db.selectNoFrom([
        lockedPath(at(0))
          .where('repo_locks.tx_id', '!=', at(1))
          .where('repo_locks.path', '=', at(2))
          .limit(1)
          .as('locked'),
        tombstoned(paths),
      ]),
    );
    // Values: now, path.
    this.bump = CompiledStatement.of(2, (at) =>
      db
        .updateTable('repo_resources')
        .set({ revision: sql`revision + 1`, last_modified: at(0) })
        .where('path', '=', at(1)),
    );
    this.insert = CompiledStatement.of(RESOURCE_COLUMNS.length, (at) =>
      db.insertInto('repo_resources').values(columnsOf(at)),
    );
    this.digest = CompiledStatement.of(1, (at) =>
      db.selectFrom('repo_resources').select('sha512').where('path', '=', at(0)),
    );
    // Values: the columns, then the path and the expected revision.
    const n = RESOURCE_COLUMNS.length;
    this.update = CompiledStatement.of(n + 2, (at) =>
      db
        .updateTable('repo_resources')
        .set(columnsOf(at))
        .where('path', '=', at(n))
        .where('revision', '=', at(n + 1)),
    );
  }

  resourceRow(executor: Executor, path: string): Promise<RepoResourceRow | undefined> {
    return this.resource.first(executor, [path]);
  }

  async children(executor: Executor, parent: string): Promise<string[]> {
    return (await this.childPaths.rows(executor, [parent])).map((row) => row.path);
  }

  /** Which of `paths` carry a tombstone. */
  async tombstoned(executor: Executor, paths: readonly string[]): Promise<string[]> {
    return (await this.tombstones.rows(executor, [], paths)).map((row) => row.path);
  }

  /** A lock on exactly `path` held by a live transaction other than `owner` (any, when null). */
  lockOn(
    executor: Executor,
    path: string,
    owner: string | null,
    now: number,
  ): Promise<{ path: string; tx_id: string } | undefined> {
    return owner === null
      ? this.lock.first(executor, [now, path])
      : this.lockOfOthers.first(executor, [now, owner, path]);
  }

  /**
   * What keeps a resource from being created at `path`, in one statement: a lock on it held by a live
   * transaction other than `owner` (any, when null), and a tombstone on it or an ancestor (`selfAndAncestors`).
   */
  async newPathBlockers(
    executor: Executor,
    path: string,
    selfAndAncestors: readonly string[],
    owner: string | null,
    now: number,
  ): Promise<Blockers> {
    const found =
      owner === null
        ? await this.blockers.rows(executor, [now, path], selfAndAncestors)
        : await this.blockersOfOthers.rows(executor, [now, owner, path], selfAndAncestors);
    return found[0] ?? { locked: null, tombstone: null };
  }

  /** Counts a child's arrival or departure in its parent's revision; false when there is no parent. */
  async bumpRevision(executor: Executor, path: string, now: number): Promise<boolean> {
    return (await this.bump.changed(executor, [now, path])) > 0n;
  }

  async insertResource(executor: Executor, row: RepoResourceRow): Promise<void> {
    await this.insert.run(executor, valuesOf(row));
  }

  /** The content digest a resource has now (undefined: no such resource). */
  digestOf(executor: Executor, path: string): Promise<{ sha512: string | null } | undefined> {
    return this.digest.first(executor, [path]);
  }

  /** Replaces the row at `path` if its revision is still `expected`; false when it is not (or gone). */
  async updateResource(
    executor: Executor,
    path: string,
    expected: number,
    row: RepoResourceRow,
  ): Promise<boolean> {
    return (await this.update.changed(executor, [...valuesOf(row), path, expected])) > 0n;
  }
}
