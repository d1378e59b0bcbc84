import { describe, expect, it } from 'vitest';
import { versionNameSchema } from './version-name.schema';

describe('versionNameSchema', () => {
  it('accepts no name at all (the repository picks one)', () => {
    expect(versionNameSchema.parse({ name: '   ' })).toEqual({ name: '' });
  });

  it('trims a name', () => {
    expect(versionNameSchema.parse({ name: ' before cleanup ' })).toEqual({ name: 'before cleanup' });
  });

  it('refuses characters that would change the version IRI, and very long names', () => {
    const slash = versionNameSchema.safeParse({ name: 'a/b' });
    expect(slash.error?.issues.map((issue) => issue.message)).toEqual([
      'A version name cannot contain /, ? or #',
    ]);
    const long = versionNameSchema.safeParse({ name: 'x'.repeat(201) });
    expect(long.error?.issues.map((issue) => issue.message)).toEqual(['Keep the name under 200 characters']);
  });
});
