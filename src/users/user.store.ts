import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { isRole, type Role } from '../http/access.js';
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
  constructor(private readonly db: Kysely<Database>) {}

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

  async insert(user: NewUser): Promise<User> {
    const row = await this.db
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
      .executeTakeFirstOrThrow();
    return toDomain(row);
  }

  async update(user: User): Promise<User | undefined> {
    const row = await this.db
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
    return row === undefined ? undefined : toDomain(row);
  }

  async setPasswordHash(id: number, passwordHash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
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
