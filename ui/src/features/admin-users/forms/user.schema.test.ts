import { describe, expect, it } from 'vitest';
import { newUserSchema, userSchema } from './user.schema';

describe('userSchema', () => {
  it('asks for a username and a known role', () => {
    const result = userSchema.safeParse({
      username: ' ',
      role: 'ROLE_ROOT',
      firstName: '',
      lastName: '',
      email: '',
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Enter a username', 'Choose a role']);
  });

  it('trims the texts', () => {
    expect(
      userSchema.parse({
        username: ' ann ',
        role: 'ROLE_CURATOR',
        firstName: ' Ann ',
        lastName: '',
        email: '',
      }),
    ).toEqual({ username: 'ann', role: 'ROLE_CURATOR', firstName: 'Ann', lastName: '', email: '' });
  });

  it('asks a new user for a password, leaving its rules to the service', () => {
    const base = { username: 'ann', role: 'ROLE_USER', firstName: '', lastName: '', email: '' };
    expect(newUserSchema.safeParse({ ...base, password: '' }).error?.issues[0]?.message).toBe(
      'Enter a password',
    );
    expect(newUserSchema.safeParse({ ...base, password: 'x' }).success).toBe(true);
  });
});
