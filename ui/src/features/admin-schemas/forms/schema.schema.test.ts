import { describe, expect, it } from 'vitest';
import { schemaFormSchema } from './schema.schema';

describe('schemaFormSchema', () => {
  it('asks for every field and an http(s) namespace', () => {
    const result = schemaFormSchema.safeParse({
      name: '',
      abbreviation: ' ',
      namespace: 'urn:x',
      properties: [],
    });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Enter a name',
      'Enter an abbreviation',
      'The namespace must be an http or https IRI',
    ]);
  });

  it('trims the texts and keeps the picked IRIs', () => {
    expect(
      schemaFormSchema.parse({
        name: ' Dublin Core ',
        abbreviation: 'dcterms',
        namespace: ' http://purl.org/dc/terms/ ',
        properties: ['http://purl.org/dc/terms/title'],
      }),
    ).toEqual({
      name: 'Dublin Core',
      abbreviation: 'dcterms',
      namespace: 'http://purl.org/dc/terms/',
      properties: ['http://purl.org/dc/terms/title'],
    });
  });
});
