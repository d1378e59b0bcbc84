import { describe, expect, it } from 'vitest';
import { addChildSchema } from './add-child.schema';

describe('addChildSchema', () => {
  it('asks for a title and trims it', () => {
    expect(addChildSchema.safeParse({ title: ' ' }).error?.issues[0]?.message).toBe('Enter a title');
    expect(addChildSchema.parse({ title: ' Letters ' })).toEqual({ title: 'Letters' });
  });
});
