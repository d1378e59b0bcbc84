import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from '../../db/database.js';

/** Where a compiled statement runs: the database, or a transaction of it (Transaction extends Kysely). */
export type Executor = Kysely<Database>;

/** Stands for the value at `index` of the values given at execution; Kysely passes it as a parameter. */
class Slot {
  constructor(readonly index: number) {}
}

/**
 * A statement built and compiled once, then executed with new values, on the database or inside a
 * transaction. Kysely otherwise builds and compiles its operation tree on every call, which on the
 * repository's write path cost about as much as SQLite takes to run the statements (issue 10). It is
 * db/prepared-query.ts with one difference: the executor is chosen per call, because the write steps run
 * inside `db.transaction()` and must use its connection. Execution still goes through Kysely
 * (`executeQuery`): the same SQL, driver and connection handling as a query built in place.
 *
 * `build` names the value at position i as `at(i)` (a stand-in, typed to fit anywhere); `run` takes the
 * values in that order, `arity` of them.
 */
export class CompiledStatement<Row> {
  private constructor(private readonly compiled: CompiledQuery<Row>) {}

  static of<Row>(
    arity: number,
    build: (at: (index: number) => never) => Compilable<Row>,
  ): CompiledStatement<Row> {
    const slots = Array.from({ length: arity }, (_, i) => new Slot(i));
    const at = (index: number): never => {
      const slot = slots[index];
      if (slot === undefined) throw new RangeError(`No value ${String(index)} among ${String(arity)}`);
      return slot as never;
    };
    return new CompiledStatement<Row>(build(at).compile());
  }

  /** The SQL, with the dialect's placeholders. */
  get sql(): string {
    return this.compiled.sql;
  }

  run(executor: Executor, values: readonly unknown[]): Promise<QueryResult<Row>> {
    const parameters = this.compiled.parameters.map((value) =>
      value instanceof Slot ? values[value.index] : value,
    );
    return executor.executeQuery<Row>({ ...this.compiled, parameters });
  }

  async rows(executor: Executor, values: readonly unknown[]): Promise<Row[]> {
    return (await this.run(executor, values)).rows;
  }

  async first(executor: Executor, values: readonly unknown[]): Promise<Row | undefined> {
    return (await this.run(executor, values)).rows[0];
  }

  /** Rows an INSERT, UPDATE or DELETE changed. */
  async changed(executor: Executor, values: readonly unknown[]): Promise<bigint> {
    return (await this.run(executor, values)).numAffectedRows ?? 0n;
  }
}

/**
 * Statements whose SQL depends on how many values an `in (…)` list has (a path and its ancestors), one
 * compiled statement per length. Lengths up to `keep` are kept (paths deeper than that are rare and get
 * a statement compiled for the call).
 */
export class CompiledByLength<Row> {
  private readonly kept = new Map<number, CompiledStatement<Row>>();

  constructor(
    /** Values before the list. */
    private readonly fixed: number,
    /** `at(i)` as in CompiledStatement.of; `list` the stand-ins of the list's values. */
    private readonly build: (at: (index: number) => never, list: readonly never[]) => Compilable<Row>,
    private readonly keep = 32,
  ) {}

  statement(length: number): CompiledStatement<Row> {
    const known = this.kept.get(length);
    if (known !== undefined) return known;
    const made = CompiledStatement.of(this.fixed + length, (at) =>
      this.build(
        at,
        Array.from({ length }, (_, i) => at(this.fixed + i)),
      ),
    );
    if (length <= this.keep) this.kept.set(length, made);
    return made;
  }

  rows(executor: Executor, fixed: readonly unknown[], list: readonly unknown[]): Promise<Row[]> {
    return this.statement(list.length).rows(executor, [...fixed, ...list]);
  }
}
