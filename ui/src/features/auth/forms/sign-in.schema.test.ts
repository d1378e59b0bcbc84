import { describe, expect, it } from 'vitest';
import { signInSchema } from './sign-in.schema';

describe('signInSchema', () => {
  it('asks for both fields', () => {
    const result = signInSchema.safeParse({ username: '  ', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Enter your username',
      'Enter your password',
    ]);
  });

  it('accepts a username and a password, trimming the name', () => {
    expect(signInSchema.parse({ username: ' admin ', password: 'secret' })).toEqual({
      username: 'admin',
      password: 'secret',
    });
  });
});
