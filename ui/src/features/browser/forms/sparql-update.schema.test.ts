import { describe, expect, it } from 'vitest';
import { sparqlUpdateSchema } from './sparql-update.schema';

describe('sparqlUpdateSchema', () => {
  it('refuses an empty update and keeps the text as typed', () => {
    expect(sparqlUpdateSchema.safeParse({ query: ' \n ' }).success).toBe(false);
    const text = 'INSERT DATA { <> <http://purl.org/dc/terms/title> "x" }\n';
    expect(sparqlUpdateSchema.parse({ query: text })).toEqual({ query: text });
  });
});
