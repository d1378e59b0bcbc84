import { describe, expect, it } from 'vitest';
import { addMetadataSchema, editValueSchema } from './metadata.schema';

const schema = addMetadataSchema([{ abbreviation: 'dcterms', namespace: 'http://purl.org/dc/terms/' }]);

describe('addMetadataSchema', () => {
  it('asks for both fields', () => {
    const result = schema.safeParse({ property: ' ', value: '' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Choose or type a property',
      'Enter a value',
    ]);
  });

  it('takes a known prefixed name or a full IRI, not an unknown prefix', () => {
    expect(schema.parse({ property: 'dcterms:title', value: ' A ' })).toEqual({
      property: 'dcterms:title',
      value: 'A',
    });
    expect(schema.safeParse({ property: 'http://example.org/p', value: 'x' }).success).toBe(true);
    expect(schema.safeParse({ property: 'foo:bar', value: 'x' }).error?.issues[0]?.message).toMatch(
      /prefixed name/,
    );
  });
});

describe('editValueSchema', () => {
  it('refuses an empty value', () => {
    expect(editValueSchema.safeParse({ value: '  ' }).success).toBe(false);
    expect(editValueSchema.parse({ value: 'new' })).toEqual({ value: 'new' });
  });
});
