import type { Kysely, Transaction } from 'kysely';
import { NO_AUDIT, type AuditLog } from '../audit/audit-log.js';
import { writeRecorded, type Describe } from '../audit/config-change.js';
import type { Database } from '../db/database.js';
import { isRole, type Role } from '../auth/roles.js';
import type { User } from './user.js';
import type { UserRow } from './user.table.js';

export interface NewUser {
  username: string;
  passwordHash: string;
  role: Role;
  firstName: string;
  lastName: string;
  email: string;
}

/** SQL access to users. Only `findCredentials` ever reads the password hash. */
export class UserStore {
  constructor(
    private readonly db: Kysely<Database>,
    /** Where each change is recorded, in the change's own transaction (`describe` says what it was). */
    private readonly audit: AuditLog = NO_AUDIT,
  ) {}

  async list(): Promise<User[]> {
    return (await this.db.selectFrom('users').selectAll().execute()).map(toDomain);
  }

  async countWithRole(role: Role): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', role)
      .executeTakeFirstOrThrow();
    return row.n;
  }

  async findById(id: number): Promise<User | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toDomain(row);
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row === undefined ? undefined : toDomain(row);
  }

  /** The user and their password hash, for sign-in and password changes. */
  async findCredentials(username: string): Promise<{ user: User; passwordHash: string } | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username)
      .executeTakeFirst();
    return row === undefined ? undefined : { user: toDomain(row), passwordHash: row.password_hash };
  }

  async insert(user: NewUser, describe?: Describe<User>): Promise<User> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) =>
        toDomain(
          await trx
            .insertInto('users')
            .values({
              username: user.username,
              password_hash: user.passwordHash,
              role: user.role,
              first_name: user.firstName,
              last_name: user.lastName,
              email: user.email,
            })
            .returningAll()
            .executeTakeFirstOrThrow(),
        ),
      describe,
    );
  }

  /**
   * Updates a user unless that would leave no administrator: the count and the write happen in one
   * transaction that first claims every administrator row (a no-op write), so two concurrent demotions
   * are serialised on PostgreSQL as on SQLite and the second sees the first. A user demoted to
   * ROLE_USER cannot curate, so they leave every view's curators in the same transaction.
   */
  async updateKeepingAnAdmin(
    user: User,
    describe?: Describe<User | 'last-admin' | undefined>,
  ): Promise<User | 'last-admin' | undefined> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const current = await claimAdminsAndRead(trx, user.id);
        if (current === undefined) return undefined;
        if (current.role === 'ROLE_ADMIN' && user.role !== 'ROLE_ADMIN' && current.admins <= 1)
          return 'last-admin';
        const row = await trx
          .updateTable('users')
          .set({
            username: user.username,
            role: user.role,
            first_name: user.firstName,
            last_name: user.lastName,
            email: user.email,
          })
          .where('id', '=', user.id)
          .returningAll()
          .executeTakeFirst();
        if (row !== undefined && user.role === 'ROLE_USER')
          await trx.deleteFrom('repository_view_curators').where('user_id', '=', user.id).execute();
        return row === undefined ? undefined : toDomain(row);
      },
      describe,
    );
  }

  /** Deletes a user unless they are the last administrator; serialised like `updateKeepingAnAdmin`. */
  async deleteKeepingAnAdmin(
    id: number,
    describe?: Describe<'deleted' | 'last-admin' | 'missing'>,
  ): Promise<'deleted' | 'last-admin' | 'missing'> {
    return writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const current = await claimAdminsAndRead(trx, id);
        if (current === undefined) return 'missing';
        if (current.role === 'ROLE_ADMIN' && current.admins <= 1) return 'last-admin';
        const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n ? 'deleted' : 'missing';
      },
      describe,
    );
  }

  /** `describe` gets whether a row was written. */
  async setPasswordHash(id: number, passwordHash: string, describe?: Describe<boolean>): Promise<void> {
    await writeRecorded(
      this.db,
      this.audit,
      async (trx) => {
        const result = await trx
          .updateTable('users')
          .set({ password_hash: passwordHash })
          .where('id', '=', id)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      },
      describe,
    );
  }
}

/**
 * Locks every administrator row (PostgreSQL row locks; SQLite has one writer anyway), then reads the
 * administrator count and the user's current role inside the same transaction.
 */
async function claimAdminsAndRead(
  trx: Transaction<Database>,
  id: number,
): Promise<{ role: string; admins: number } | undefined> {
  await trx.updateTable('users').set({ role: 'ROLE_ADMIN' }).where('role', '=', 'ROLE_ADMIN').execute();
  const { n } = await trx
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'ROLE_ADMIN')
    .executeTakeFirstOrThrow();
  const row = await trx.selectFrom('users').select('role').where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : { role: row.role, admins: Number(n) };
}

function toDomain(row: UserRow): User {
  if (!isRole(row.role)) throw new Error(`user ${row.id} has unknown stored role ${row.role}`);
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
  };
}
