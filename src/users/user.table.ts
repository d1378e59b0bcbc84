import type { Generated, Selectable } from 'kysely';

export interface UserTable {
  id: Generated<number>;
  /** Lower-case, unique. */
  username: string;
  password_hash: string;
  role: string;
  first_name: string;
  last_name: string;
  email: string;
}

export type UserRow = Selectable<UserTable>;
