import type { Kysely } from 'kysely';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import { writeRecorded, type Describe } from '../audit/config-change.js';
import type { Database } from '../db/database.js';
import { dataVersionOf, VersionedCache } from '../db/data-version.js';
import { PreparedQuery } from '../db/prepared-query.js';
import type { InternalMetadata, InternalMetadataInput } from './internal-metadata.js';
import type { InternalMetadataRow } from './internal-metadata.table.js';

/** SQL access to internal metadata; rows become domain objects in one place (`toDomain`). */
export class InternalMetadataStore {
  /**
   * The whole table (read on every list) and the required fields (on every operator application), both
   * unchanged between writes: kept while the database is unchanged (db/data-version.ts).
   */
  private readonly listed: VersionedCache<'all', readonly InternalMetadata[]>;
  private readonly requiredKept: VersionedCache<'required', readonly string[]>;
  private readonly required;

  constructor(
    private readonly db: Kysely<Database>,
    /** Where each change is recorded, in the change's own transaction (`describe` says what it was). */
    private readonly audit: AuditLog = NO_AUDIT,
  ) {
    this.listed = new VersionedCache(dataVersionOf(db));
    this.requiredKept = new VersionedCache(dataVersionOf(db));
    this.required = PreparedQuery.of(db, {}, () =>
      db.selectFrom('internal_metadata').select('field').where('required', '=', 1).orderBy('id'),
    );
  }

  /**
   * Every row, in the database's order. The array and its items are frozen: while nothing is written
   * (on SQLite) every call answers the same array.
   */
  async list(): Promise<readonly InternalMetadata[]> {
    return this.listed.get('all', async () => {
      const rows = await this.db.selectFrom('internal_metadata').selectAll().execute();
      return Object.freeze(rows.map((row) => Object.freeze(toDomain(row))));
    });
  }

  /** `list`'s answer when it is kept and can be told at once (VersionedCache.peek); undefined when it must be read. */
  keptList(): readonly InternalMetadata[] | undefined {
    return this.listed.peek('all');
  }

  /**
   * The fields of the rows marked required, by id (the order rows are stored in; `list` leaves the
   * order to the database, whose unordered scan of this table is by id on SQLite). Frozen, may be shared.
   */
  async requiredFields(): Promise<readonly string[]> {
    return this.requiredKept.get('required', async () =>
      Object.freeze((await this.required.execute({})).map((row) => row.field)),
    );
  }

  /** `requiredFields`' answer when it is kept and can be told at once; undefined when it must be read. */
  keptRequiredFields(): readonly string[] | undefined {
    return this.requiredKept.peek('required');
  }

  async findById(id: number): Promise<InternalMetadata | undefined> {
    const row = await this.db
      .selectFrom('internal_metadata')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row === undefined ? undefined : toDomain(row);
  }

  async findByField(field: string): Promise<InternalMetadata | undefined> {
    const row = await this.db
      .selectFrom('internal_metadata')
      .selectAll()
      .where('field', '=', field)
      .executeTakeFirst();
    return row === undefined ? undefined : toDomain(row);
  }

  async insert(
    input: InternalMetadataInput,
    describe?: Describe<InternalMetadata>,
  ): Promise<InternalMetadata> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) =>
        toDomain(
          await trx
            .insertInto('internal_metadata')
            .values({ gloss: input.gloss, field: input.field, required: input.required ? 1 : 0 })
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      describe,
    );
  }

  /** Returns undefined when the row no longer exists. */
  async update(
    item: InternalMetadata,
    describe?: Describe<InternalMetadata | undefined>,
  ): Promise<InternalMetadata | undefined> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .updateTable('internal_metadata')
          .set({ gloss: item.gloss, field: item.field, required: item.required ? 1 : 0 })
          .where('id', '=', item.id)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toDomain(row);
      },
      describe,
    );
  }

  /** Returns whether a row was deleted; `describe` gets the row deleted (undefined: none was). */
  async delete(id: number, describe?: Describe<InternalMetadata | undefined>): Promise<boolean> {
    const deleted = await writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .deleteFrom('internal_metadata')
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toDomain(row);
      },
      describe,
    );
    return deleted !== undefined;
  }
}

function toDomain(row: InternalMetadataRow): InternalMetadata {
  return { id: row.id, gloss: row.gloss, field: row.field, required: row.required === 1 };
}
