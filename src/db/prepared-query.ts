import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Stands for a value given at execution; Kysely passes it through as an ordinary query parameter. */
class Slot {
  constructor(readonly name: string) {}
}

type Params = Readonly<Record<string, unknown>>;

/**
 * A query built and compiled once, then executed with new values. Kysely otherwise builds and compiles
 * its operation tree on every call, which on a hot path costs more than SQLite takes to run the query.
 * Execution still goes through Kysely (`db.executeQuery`): the same SQL, the same driver, the same
 * connection handling (on SQLite the driver's connection lock, so a query never runs inside someone
 * else's transaction).
 *
 * `shape` names the values given at execution (its own values only tell their types); `build` receives
 * stand-ins for them:
 *
 *   const byId = PreparedQuery.of(db, { id: 0 }, (p) => db.selectFrom('users').selectAll().where('id', '=', p.id));
 *   await byId.execute({ id: 7 });
 */
export class PreparedQuery<Row, P extends Params> {
  private constructor(
    private readonly run: (query: CompiledQuery<Row>) => Promise<QueryResult<Row>>,
    private readonly compiled: CompiledQuery<Row>,
  ) {}

  static of<DB, P extends Params, Row>(
    db: Kysely<DB>,
    shape: P,
    build: (params: P) => Compilable<Row>,
  ): PreparedQuery<Row, P> {
    const slots = Object.fromEntries(
      Object.keys(shape).map((name) => [name, new Slot(name)]),
    ) as unknown as P;
    return new PreparedQuery<Row, P>((query) => db.executeQuery(query), build(slots).compile());
  }

  /** The SQL, with the dialect's placeholders. */
  get sql(): string {
    return this.compiled.sql;
  }

  async execute(params: P): Promise<Row[]> {
    const parameters = this.compiled.parameters.map((value) =>
      value instanceof Slot ? params[value.name] : value,
    );
    return (await this.run({ ...this.compiled, parameters })).rows;
  }

  async executeTakeFirst(params: P): Promise<Row | undefined> {
    return (await this.execute(params))[0];
  }
}
