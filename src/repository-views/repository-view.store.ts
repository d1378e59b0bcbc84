import type { Kysely, Transaction } from 'kysely';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import { writeRecorded, type Describe } from '../audit/config-change.js';
import type { Database } from '../db/database.js';
import { dataVersionOf, VersionedCache } from '../db/data-version.js';
import type { RepositoryKind } from '../repository-adapters/repository-adapter.js';
import {
  isDetectedDialect,
  isFedoraDialect,
  type DetectedDialect,
  type FedoraDialect,
} from '../shared/fedora-dialect.js';
import { isRepositoryKind, type RepositoryView } from './repository-view.js';
import type { RepositoryViewRow } from './repository-view.table.js';

export interface RepositoryViewRecord {
  type: RepositoryKind;
  name: string;
  rootUri: string;
  username: string | null;
  schemaIds: readonly number[];
  curatorIds: readonly number[];
  dialect: FedoraDialect | null;
}

/** A view as one write stored it (what the ledger records of it). */
export type StoredRecord = RepositoryViewRecord & { readonly id: number };

/** The configuration a dialect was detected for: it is stored only while the view still has it. */
export interface DetectedConfiguration {
  readonly type: RepositoryKind;
  readonly rootUri: string;
  readonly username: string | null;
  readonly passwordEncrypted: string | null;
}

/** `undefined` keeps the stored ciphertext, `null` clears it. */
export type PasswordColumn = string | null | undefined;

/** A view as one read found it, with its stored password ciphertext (never the password itself). */
interface StoredView {
  readonly view: RepositoryView;
  readonly passwordEncrypted: string | null;
}

/** The views kept by id: every context request opens one (see `findById`). */
const KEPT_VIEWS = 64;

/** SQL access to repository views and their schema and curator links. */
export class RepositoryViewStore {
  /**
   * Every context request reads its view, its links and its password ciphertext: kept by id while the
   * database is unchanged (db/data-version.ts; on PostgreSQL the views, their links and the users all
   * notify, so a curator removed or a view edited by another instance moves the token too).
   */
  private readonly byId: VersionedCache<number, StoredView>;

  constructor(
    private readonly db: Kysely<Database>,
    /** Where each change is recorded, in the change's own transaction (`describe` says what it was). */
    private readonly audit: AuditLog = NO_AUDIT,
  ) {
    this.byId = new VersionedCache(dataVersionOf(db), KEPT_VIEWS);
  }

  async list(): Promise<RepositoryView[]> {
    const rows = await this.db.selectFrom('repository_views').selectAll().orderBy('id').execute();
    return this.withLinks(rows);
  }

  /** Frozen, links included: while nothing is written the same id answers the same object. */
  async findById(id: number): Promise<RepositoryView | undefined> {
    return (await this.findStored(id))?.view;
  }

  async findIdByName(name: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('repository_views')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.id;
  }

  /** The stored ciphertext of a view's password, for building its adapter. */
  async findEncryptedPassword(id: number): Promise<string | null | undefined> {
    const stored = await this.findStored(id);
    return stored === undefined ? undefined : stored.passwordEncrypted;
  }

  /** The view's row and links, read in one go (the row holds the ciphertext too); kept while unchanged. */
  private findStored(id: number): Promise<StoredView | undefined> {
    return this.byId.find(id, async () => {
      const row = await this.db
        .selectFrom('repository_views')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const [view] = await this.withLinks([row]);
      if (view === undefined) return undefined;
      Object.freeze(view.schemaIds);
      Object.freeze(view.curatorIds);
      return Object.freeze({ view: Object.freeze(view), passwordEncrypted: row.password_encrypted });
    });
  }

  /** Names of the views that use a schema (schema deletion is refused while any does). */
  async namesUsingSchema(schemaId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('repository_view_schemas')
      .innerJoin('repository_views', 'repository_views.id', 'repository_view_schemas.view_id')
      .select('repository_views.name')
      .where('repository_view_schemas.schema_id', '=', schemaId)
      .orderBy('repository_views.name')
      .execute();
    return rows.map((row) => row.name);
  }

  async insert(
    record: RepositoryViewRecord,
    passwordEncrypted: string | null,
    describe?: Describe<StoredRecord>,
  ): Promise<RepositoryView> {
    const { id } = await writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const row = await trx
          .insertInto('repository_views')
          .values({
            type: record.type,
            name: record.name,
            root_uri: record.rootUri,
            username: record.username,
            password_encrypted: passwordEncrypted,
            dialect: record.dialect,
            detected_dialect: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await replaceLinks(trx, row.id, record.schemaIds, record.curatorIds);
        return { ...record, id: row.id };
      },
      describe,
    );
    const created = await this.findById(id);
    if (created === undefined) throw new Error(`repository view ${id} vanished after insert`);
    return created;
  }

  /**
   * Replaces the whole view; undefined when it no longer exists. `keepDetected` false forgets the
   * detected dialect (the configuration it was found for changed).
   */
  async update(
    id: number,
    record: RepositoryViewRecord,
    password: PasswordColumn,
    keepDetected: boolean,
    describe?: Describe<StoredRecord | undefined>,
  ): Promise<RepositoryView | undefined> {
    const updated = await writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const result = await trx
          .updateTable('repository_views')
          .set({
            type: record.type,
            name: record.name,
            root_uri: record.rootUri,
            username: record.username,
            ...(password === undefined ? {} : { password_encrypted: password }),
            dialect: record.dialect,
            ...(keepDetected ? {} : { detected_dialect: null }),
          })
          .where('id', '=', id)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return undefined;
        await replaceLinks(trx, id, record.schemaIds, record.curatorIds);
        return { ...record, id };
      },
      describe,
    );
    return updated === undefined ? undefined : this.findById(id);
  }

  /**
   * Records what detection found, only while the view still has the configuration it was found for (an
   * edit in between cleared it, and must not get it back) and only when it differs from what is stored
   * (every write moves the caches' data version). Whether a row was written.
   */
  async recordDetected(
    id: number,
    configuration: DetectedConfiguration,
    found: DetectedDialect,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('repository_views')
      .set({ detected_dialect: found })
      .where('id', '=', id)
      .where('type', '=', configuration.type)
      .where('root_uri', '=', configuration.rootUri)
      .where((eb) =>
        configuration.username === null
          ? eb('username', 'is', null)
          : eb('username', '=', configuration.username),
      )
      .where((eb) =>
        configuration.passwordEncrypted === null
          ? eb('password_encrypted', 'is', null)
          : eb('password_encrypted', '=', configuration.passwordEncrypted),
      )
      .where('dialect', 'is', null)
      .where((eb) => eb.or([eb('detected_dialect', 'is', null), eb('detected_dialect', '!=', found)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Whether a row was deleted; `describe` is told that too. */
  async delete(id: number, describe?: Describe<boolean>): Promise<boolean> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const result = await trx.deleteFrom('repository_views').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      },
      describe,
    );
  }

  /**
   * Runs `seed` once per database, ever: a seeded row that is later deleted stays deleted. The seed
   * marker is claimed atomically, so two instances starting together seed once.
   */
  async seedOnce(name: string, now: number, seed: () => Promise<void>): Promise<boolean> {
    const claimed = await this.db
      .insertInto('seeds')
      .values({ name, seeded_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
    await seed();
    return true;
  }

  private async withLinks(rows: RepositoryViewRow[]): Promise<RepositoryView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const schemas = await this.db
      .selectFrom('repository_view_schemas')
      .selectAll()
      .where('view_id', 'in', ids)
      .orderBy('position')
      .execute();
    const curators = await this.db
      .selectFrom('repository_view_curators')
      .selectAll()
      .where('view_id', 'in', ids)
      .orderBy('user_id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      type: toKind(row.type),
      name: row.name,
      rootUri: row.root_uri,
      username: row.username,
      hasPassword: row.password_encrypted !== null,
      schemaIds: schemas.filter((link) => link.view_id === row.id).map((link) => link.schema_id),
      curatorIds: curators.filter((link) => link.view_id === row.id).map((link) => link.user_id),
      dialect: toDialect(row.dialect),
      detectedDialect: toDetected(row.detected_dialect),
    }));
  }
}

async function replaceLinks(
  trx: Transaction<Database>,
  viewId: number,
  schemaIds: readonly number[],
  curatorIds: readonly number[],
): Promise<void> {
  await trx.deleteFrom('repository_view_schemas').where('view_id', '=', viewId).execute();
  await trx.deleteFrom('repository_view_curators').where('view_id', '=', viewId).execute();
  if (schemaIds.length > 0) {
    await trx
      .insertInto('repository_view_schemas')
      .values(schemaIds.map((schemaId, position) => ({ view_id: viewId, schema_id: schemaId, position })))
      .execute();
  }
  if (curatorIds.length > 0) {
    await trx
      .insertInto('repository_view_curators')
      .values(curatorIds.map((userId) => ({ view_id: viewId, user_id: userId })))
      .execute();
  }
}

function toKind(type: string): RepositoryKind {
  if (!isRepositoryKind(type)) throw new Error(`repository view has unknown stored type ${type}`);
  return type;
}

function toDialect(dialect: string | null): FedoraDialect | null {
  if (dialect !== null && !isFedoraDialect(dialect))
    throw new Error(`repository view has unknown stored dialect ${dialect}`);
  return dialect;
}

/** An unknown stored value (a later version's) reads as "not detected": detection simply runs again. */
function toDetected(found: string | null): DetectedDialect | null {
  return isDetectedDialect(found) ? found : null;
}
