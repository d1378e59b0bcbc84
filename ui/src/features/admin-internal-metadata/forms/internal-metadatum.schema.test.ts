import { describe, expect, it } from 'vitest';
import { internalMetadatumSchema } from './internal-metadatum.schema';

describe('internalMetadatumSchema', () => {
  it('asks for the field and the label', () => {
    const result = internalMetadatumSchema.safeParse({ field: ' ', gloss: '', required: false });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Enter the field key',
      'Enter the label',
    ]);
  });

  it('trims the texts and keeps the flag', () => {
    expect(internalMetadatumSchema.parse({ field: ' title ', gloss: 'Title', required: true })).toEqual({
      field: 'title',
      gloss: 'Title',
      required: true,
    });
  });
});
