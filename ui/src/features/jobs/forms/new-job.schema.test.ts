import { describe, expect, it } from 'vitest';
import { bareFieldOperators, newJobBody, newJobSchema } from './new-job.schema';

const valid = {
  repositoryViewId: '3',
  contextUri: ' http://example.org/rest/a ',
  kind: 'MAPPING' as const,
  scope: 'CHILDREN' as const,
  query: '',
  operators: [4, 2],
};

describe('newJobSchema', () => {
  it('accepts a MAPPING job with operators in order, trimming the resource', () => {
    expect(newJobSchema.parse(valid)).toEqual({ ...valid, contextUri: 'http://example.org/rest/a' });
  });

  it('asks for a view and at least one operator for MAPPING', () => {
    const result = newJobSchema.safeParse({ ...valid, repositoryViewId: '', operators: [] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['repositoryViewId', 'Choose a repository view'],
      ['operators', 'Add at least one operator'],
    ]);
  });

  it('takes FIXITY without operators and the root as an empty resource', () => {
    const values = newJobSchema.parse({ ...valid, kind: 'FIXITY', contextUri: '', operators: [] });
    expect(newJobBody(values)).toEqual({
      repositoryViewId: 3,
      contextUri: '',
      kind: 'FIXITY',
      scope: 'CHILDREN',
    });
  });

  it('rejects an unknown scope and an overlong resource', () => {
    const result = newJobSchema.safeParse({ ...valid, scope: 'ALL', contextUri: 'x'.repeat(2001) });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['contextUri', 'scope']);
  });

  it('asks a QUERY scope for its query and sends it; other scopes send none', () => {
    const missing = newJobSchema.safeParse({ ...valid, scope: 'QUERY', query: '   ' });
    expect(missing.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['query', 'Enter the search query'],
    ]);
    expect(newJobBody(newJobSchema.parse({ ...valid, scope: 'QUERY', query: ' has:dcterms:date ' }))).toEqual(
      {
        repositoryViewId: 3,
        contextUri: 'http://example.org/rest/a',
        kind: 'MAPPING',
        scope: 'QUERY',
        query: 'has:dcterms:date',
        operators: [4, 2],
        dryRun: true,
      },
    );
    expect(
      newJobBody(newJobSchema.parse({ ...valid, scope: 'MEMBERS', query: 'left over' })),
    ).not.toHaveProperty('query');
  });

  it('makes a MAPPING body that previews', () => {
    expect(newJobBody(newJobSchema.parse(valid))).toMatchObject({ operators: [4, 2], dryRun: true });
  });
});

describe('bareFieldOperators', () => {
  it('names the chosen operators whose field has no prefix, in the list order', () => {
    const operators = [
      { id: 1, field: 'title' },
      { id: 2, field: 'dcterms:title' },
      { id: 3, field: 'http://purl.org/dc/terms/date' },
      { id: 4, field: 'date' },
    ];
    expect(bareFieldOperators([4, 2, 3, 1], operators).map((operator) => operator.id)).toEqual([1, 4]);
    expect(bareFieldOperators([2, 3], operators)).toEqual([]);
  });
});
