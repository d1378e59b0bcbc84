import type { Role } from '../auth/roles.js';

/** A user of the service (interface §2 User); the password hash never leaves the store. */
export interface User {
  readonly id: number;
  readonly username: string;
  readonly role: Role;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
}

export const ENTITY = 'User';

/** Roles a user can hold; ROLE_ANONYMOUS is what a request without credentials has. */
export const ASSIGNABLE_ROLES: readonly Role[] = ['ROLE_ADMIN', 'ROLE_CURATOR', 'ROLE_USER'];

/** Usernames are compared case-insensitively; they are stored lower-case. */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** The JSON shape, in the interface's field order. */
export function toUserJson(user: User): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    role: user.role,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
  };
}
