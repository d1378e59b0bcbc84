import { z } from 'zod';

const role = z.enum(['ROLE_ADMIN', 'ROLE_CURATOR', 'ROLE_USER'], { error: 'Choose a role' });

/** Editing a user: presence only; the service's limits (length, pattern, e-mail) come back per field. */
export const userSchema = z.object({
  username: z.string().trim().min(1, 'Enter a username'),
  role,
  firstName: z.string().trim(),
  lastName: z.string().trim(),
  email: z.string().trim(),
});

/** Creating one also asks for the first password. */
export const newUserSchema = userSchema.extend({
  password: z.string().min(1, 'Enter a password'),
});

export type UserValues = z.infer<typeof userSchema>;
export type NewUserValues = z.infer<typeof newUserSchema>;
