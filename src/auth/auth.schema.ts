import { Type, type Static } from '@sinclair/typebox';
import { messages } from '../shared/body-schema.js';
import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '../users/user.schema.js';

/**
 * The body of POST /auth/login (DECISIONS.md §5). Only the lengths a user can have are enforced: a
 * malformed username simply does not sign in, so the user rules' other limits are not repeated.
 */
export const LoginBody = Type.Object({
  username: Type.String({
    maxLength: USERNAME_MAX_LENGTH,
    ...messages({
      required: 'A username is required',
      maxlength: `A username must be no more than ${USERNAME_MAX_LENGTH} characters`,
      type: 'A username must be a string',
    }),
  }),
  password: Type.String({
    maxLength: PASSWORD_MAX_LENGTH,
    ...messages({
      required: 'A password is required',
      maxlength: `A password must be no more than ${PASSWORD_MAX_LENGTH} characters`,
      type: 'A password must be a string',
    }),
  }),
});
export type LoginBody = Static<typeof LoginBody>;
