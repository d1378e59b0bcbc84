import { describe, expect, it } from 'vitest';
import { NS } from '../../linked-data/rdf/vocab.js';
import { ValidationFailedError } from '../../shared/errors.js';
import { checkExportRequest, type ExportParams } from './export-request.js';

const view = {
  rootUri: 'http://repo.example/rest/',
  schemas: [{ abbreviation: 'dcterms', namespace: NS.dcterms }],
};

function problems(params: ExportParams, searchable = true): Record<string, Record<string, string>> {
  try {
    checkExportRequest(view, params, searchable);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).results.messages;
  }
  throw new Error('the request passed');
}

describe('checkExportRequest', () => {
  it('resolves the context against the root (the root by default) and keeps the query only for QUERY', () => {
    expect(checkExportRequest(view, { scope: 'SUBTREE' }, true)).toEqual({
      contextUri: 'http://repo.example/rest/',
      scope: 'SUBTREE',
      query: null,
      bom: false,
    });
    expect(
      checkExportRequest(
        view,
        { contextUri: 'letters', scope: 'QUERY', query: ' dcterms:title:lantern ', bom: true },
        true,
      ),
    ).toEqual({
      contextUri: 'http://repo.example/rest/letters',
      scope: 'QUERY',
      query: 'dcterms:title:lantern',
      bom: true,
    });
    expect(checkExportRequest(view, { scope: 'MEMBERS', query: '  ', format: 'csv' }, true).query).toBeNull();
  });

  it('refuses the listed scopes without search', () => {
    expect(problems({ scope: 'MEMBERS' }, false)).toEqual({
      scope: { type: 'A MEMBERS-scoped export needs search, which this service does not offer' },
    });
  });

  it('names an unknown prefix in a query with its position', () => {
    expect(problems({ scope: 'QUERY', query: 'nope:title:x' }).query).toMatchObject({
      position: expect.any(String) as string,
    });
  });

  it('collects every problem of one request', () => {
    expect(
      Object.keys(
        problems({ contextUri: 'http://other.example/', scope: 'ALL', format: 'xlsx', query: 'x' }),
      ).sort(),
    ).toEqual(['contextUri', 'format', 'scope']);
  });
});
