// The role model, apart from HTTP so that stores and services can use it (issue 9, layering).

/** Roles, highest first (DECISIONS.md §5). A route names the lowest role that may call it. */
export const ROLES = ['ROLE_ADMIN', 'ROLE_CURATOR', 'ROLE_USER', 'ROLE_ANONYMOUS'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return ROLES.some((role) => role === value);
}

/** Whether `held` may do what `required` may (the hierarchy: ADMIN > CURATOR > USER > ANONYMOUS). */
export function roleSatisfies(held: Role, required: Role): boolean {
  return ROLES.indexOf(held) <= ROLES.indexOf(required);
}

/** Who is calling, once their token has been checked. */
export interface Principal {
  readonly userId: number;
  readonly username: string;
  readonly role: Role;
  /** Hash of the token used, so logout can revoke exactly it. */
  readonly tokenHash: string;
  /** Epoch milliseconds at which the token expires. */
  readonly expiresAt: number;
}
