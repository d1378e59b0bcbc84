import { Type, type Static } from '@sinclair/typebox';
import { messages, Nullable, OptionalId } from '../shared/body-schema.js';
import { ASSIGNABLE_ROLES } from './user.js';

/**
 * The request bodies of /user (interface §4.6, DECISIONS.md §5), each limit and message written once:
 * Fastify validates them, OpenAPI documents them, the service receives their types; the CLI checks its
 * input against the same schema.
 */

export const PASSWORD_MAX_LENGTH = 200;
export const USERNAME_MAX_LENGTH = 100;

const Username = Type.String({
  minLength: 2,
  maxLength: USERNAME_MAX_LENGTH,
  pattern: '^[A-Za-z0-9._@+-]+$',
  ...messages({
    required: 'A user requires a username',
    minlength: 'A username must be at least 2 characters',
    maxlength: `A username must be no more than ${USERNAME_MAX_LENGTH} characters`,
    pattern: 'A username may contain only letters, digits and . _ @ + -',
    type: 'A username must be a string',
  }),
});

/** A new password; `required` words what is missing where it is asked for. */
function newPassword(required: string) {
  return Type.String({
    minLength: 8,
    maxLength: PASSWORD_MAX_LENGTH,
    ...messages({
      required,
      minlength: 'A password must be at least 8 characters',
      maxlength: `A password must be no more than ${PASSWORD_MAX_LENGTH} characters`,
      type: 'A password must be a string',
    }),
  });
}

const Role = Type.Union(
  ASSIGNABLE_ROLES.map((role) => Type.Literal(role)),
  messages({
    required: 'A user requires a role',
    type: `A role must be one of ${ASSIGNABLE_ROLES.join(', ')}`,
  }),
);

/** Optional text; null or missing is stored as "". */
function profileText(property: string, maxLength: number, pattern?: { pattern: string; message: string }) {
  return Type.Optional(
    Nullable(
      Type.String({
        maxLength,
        ...(pattern && { pattern: pattern.pattern }),
        ...messages({
          maxlength: `A user's ${property} must be no more than ${maxLength} characters`,
          ...(pattern && { pattern: pattern.message }),
          type: `A user's ${property} must be a string`,
        }),
      }),
    ),
  );
}

const profile = {
  firstName: profileText('firstName', 100),
  lastName: profileText('lastName', 100),
  // Checked loosely, and only when not empty.
  email: profileText('email', 254, {
    pattern: '^(|[^\\s@]+@[^\\s@]+)$',
    message: 'An e-mail address must look like name@example.org',
  }),
};

export const NewUserBody = Type.Object({
  id: OptionalId,
  username: Username,
  password: newPassword('A user requires a password'),
  role: Role,
  ...profile,
});
export type NewUserBody = Static<typeof NewUserBody>;

/** An update keeps the stored username and role where the body has none. */
export const UserUpdateBody = Type.Object({
  id: OptionalId,
  username: Type.Optional(Nullable(Username)),
  role: Type.Optional(Nullable(Role)),
  ...profile,
});
export type UserUpdateBody = Static<typeof UserUpdateBody>;

export const PasswordChangeBody = Type.Object({
  currentPassword: Type.String({
    maxLength: PASSWORD_MAX_LENGTH,
    ...messages({
      required: 'The current password is required',
      maxlength: `A password must be no more than ${PASSWORD_MAX_LENGTH} characters`,
      type: 'A password must be a string',
    }),
  }),
  newPassword: newPassword('A new password is required'),
});
export type PasswordChangeBody = Static<typeof PasswordChangeBody>;
