import type { Kysely } from 'kysely';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import { writeRecorded, type Describe } from '../audit/config-change.js';
import type { Database } from '../db/database.js';
import { dataVersionOf, VersionedCache } from '../db/data-version.js';
import { isOperatorTypeName, type NewOperator, type Operator } from './operator.js';
import type { OperatorRow, OperatorTable } from './operator.table.js';

/** The id lists kept by `findByIds`, and the longest list kept (longer ones are always read). */
const KEPT_ID_LISTS = 32;
const LONGEST_KEPT_LIST = 100;

/** An id list's operators in its order, or the ids of the list that name no operator. */
export interface OperatorsInOrder {
  /** Empty when any id is missing. */
  readonly operators: readonly Operator[];
  readonly missing: readonly number[];
}

const NONE: OperatorsInOrder = Object.freeze({ operators: Object.freeze([]), missing: Object.freeze([]) });

/** SQL access to operators; the row ↔ domain mapping lives in `toDomain` / `toColumns`. */
export class OperatorStore {
  /** The same operators are applied to document after document: kept per id list while nothing changed. */
  private readonly byIds: VersionedCache<string, readonly Operator[]>;
  /** `inOrder`'s answers, per id list. */
  private readonly ordered: VersionedCache<string, OperatorsInOrder>;
  /** The whole table, read on every `GET /operators`: kept while nothing changed. */
  private readonly listed: VersionedCache<'all', readonly Operator[]>;

  constructor(
    private readonly db: Kysely<Database>,
    /** Where each change is recorded, in the change's own transaction (`describe` says what it was). */
    private readonly audit: AuditLog = NO_AUDIT,
  ) {
    this.byIds = new VersionedCache(dataVersionOf(db), KEPT_ID_LISTS);
    this.ordered = new VersionedCache(dataVersionOf(db), KEPT_ID_LISTS);
    this.listed = new VersionedCache(dataVersionOf(db));
  }

  /**
   * Every operator, in the database's order. The array and its items are frozen: while nothing is
   * written (db/data-version.ts) every call answers the same array.
   */
  async list(): Promise<readonly Operator[]> {
    return this.listed.get('all', async () => {
      const rows = await this.db.selectFrom('operators').selectAll().execute();
      return Object.freeze(rows.map((row) => frozen(toDomain(row))));
    });
  }

  async findById(id: number): Promise<Operator | undefined> {
    const row = await this.db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toDomain(row);
  }

  /**
   * The operators with these ids that exist, in the database's order. Frozen: while nothing is written
   * (on SQLite, see db/data-version.ts) the same id list answers the same operators.
   */
  async findByIds(ids: readonly number[]): Promise<readonly Operator[]> {
    if (ids.length === 0) return [];
    const read = () => this.readByIds(ids);
    return ids.length > LONGEST_KEPT_LIST ? read() : this.byIds.get(ids.join(','), read);
  }

  /**
   * The operators of an id list in the list's order (an id repeated is applied again), or the ids that
   * do not exist. Kept per list while nothing is written, like `findByIds`: `POST /operators/apply` sends
   * the same list document after document, and ordering it per request was a Map and a Set each time.
   */
  async inOrder(ids: readonly number[]): Promise<OperatorsInOrder> {
    if (ids.length === 0) return NONE;
    const order = () => this.readInOrder(ids);
    return ids.length > LONGEST_KEPT_LIST ? order() : this.ordered.get(ids.join(','), order);
  }

  /**
   * `inOrder`'s answer when it is kept and can be told without waiting (VersionedCache.peek), so the
   * caller need not wait for a promise; undefined when it must be read.
   */
  keptInOrder(ids: readonly number[]): OperatorsInOrder | undefined {
    if (ids.length === 0) return NONE;
    return ids.length > LONGEST_KEPT_LIST ? undefined : this.ordered.peek(ids.join(','));
  }

  private async readInOrder(ids: readonly number[]): Promise<OperatorsInOrder> {
    const found = new Map((await this.readByIds([...new Set(ids)])).map((op) => [op.id, op]));
    const missing = ids.filter((id) => !found.has(id));
    const operators = missing.length > 0 ? [] : ids.flatMap((id) => found.get(id) ?? []);
    return Object.freeze({ operators: Object.freeze(operators), missing: Object.freeze(missing) });
  }

  private async readByIds(ids: readonly number[]): Promise<readonly Operator[]> {
    const rows = await this.db
      .selectFrom('operators')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute();
    return Object.freeze(rows.map((row) => frozen(toDomain(row))));
  }

  async findByName(name: string): Promise<Operator | undefined> {
    const row = await this.db.selectFrom('operators').selectAll().where('name', '=', name).executeTakeFirst();
    return row === undefined ? undefined : toDomain(row);
  }

  async insert(operator: NewOperator, describe?: Describe<Operator>): Promise<Operator> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) =>
        toDomain(
          await trx
            .insertInto('operators')
            .values(toColumns(operator))
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      describe,
    );
  }

  /** Replaces the whole operator (type unchanged, checked by the service); undefined when gone. */
  async update(operator: Operator, describe?: Describe<Operator | undefined>): Promise<Operator | undefined> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .updateTable('operators')
          .set(toColumns(operator))
          .where('id', '=', operator.id)
          .where('type', '=', operator.type)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toDomain(row);
      },
      describe,
    );
  }

  /** Whether a row was deleted; `describe` gets the operator deleted (undefined: none was). */
  async delete(id: number, describe?: Describe<Operator | undefined>): Promise<boolean> {
    const deleted = await writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx.deleteFrom('operators').where('id', '=', id).returningAll().executeTakeFirst();
        return row === undefined ? undefined : toDomain(row);
      },
      describe,
    );
    return deleted !== undefined;
  }
}

/** An operator that may be shared between requests, its mapping included. */
function frozen(operator: Operator): Operator {
  if (operator.type === 'MAPPING_OP') Object.freeze(operator.mapping);
  return Object.freeze(operator);
}

function toColumns(operator: NewOperator): Omit<OperatorTable, 'id'> {
  return {
    type: operator.type,
    name: operator.name,
    field: operator.field,
    value: 'value' in operator ? operator.value : null,
    regex: 'regex' in operator ? operator.regex : null,
    mapping: 'mapping' in operator ? JSON.stringify(operator.mapping) : null,
  };
}

function toDomain(row: OperatorRow): Operator {
  const base = { id: row.id, name: row.name, field: row.field };
  const type = row.type;
  if (!isOperatorTypeName(type)) throw new Error(`operator ${row.id} has unknown stored type ${type}`);
  switch (type) {
    case 'CONSTANT_OP':
    case 'DEFAULT_OP':
    case 'TEMPLATE_OP':
    case 'DATE_NORMALIZATION_OP':
      return { ...base, type, value: row.value ?? '' };
    case 'REGEX_REPLACE_OP':
      return { ...base, type, value: row.value ?? '', regex: row.regex ?? '' };
    case 'MAPPING_OP':
      return { ...base, type, mapping: JSON.parse(row.mapping ?? '{}') as Record<string, string> };
    case 'BASE_64_ENCODE_OP':
    case 'APPLICATION_TYPE_OP':
      return { ...base, type };
  }
}
