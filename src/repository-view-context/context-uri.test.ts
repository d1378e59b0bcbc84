import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../shared/errors.js';
import { resolveContextUri } from './context-uri.js';

const ROOT = 'http://repo.example:8080/rest/';

describe('resolveContextUri', () => {
  it.each([
    ['', ROOT, undefined, true],
    ['/', ROOT, undefined, true],
    [ROOT, ROOT, undefined, true],
    ['http://repo.example:8080/rest', ROOT, undefined, true],
    ['a/b', `${ROOT}a/b`, undefined, false],
    ['/a/b', `${ROOT}a/b`, undefined, false],
    [`${ROOT}a/b`, `${ROOT}a/b`, undefined, false],
    ['tx:0f8fad5b-d9cb-469f-a165-70867728950e/a', `${ROOT}a`, '0f8fad5b-d9cb-469f-a165-70867728950e', false],
    [`${ROOT}tx:abc-1/a`, `${ROOT}a`, 'abc-1', false],
    [`${ROOT}a?token=tx:abc-2`, `${ROOT}a`, 'abc-2', false],
    ['a%20b', `${ROOT}a%20b`, undefined, false],
  ])('%s → %s (tx %s)', (input, uri, tx, isRoot) => {
    const resolved = resolveContextUri(ROOT, input);
    expect(resolved.uri).toBe(uri);
    expect(resolved.tx?.id).toBe(tx);
    expect(resolved.isRoot).toBe(isRoot);
  });

  it.each([
    ['../etc/passwd'],
    ['a/../../x'],
    ['a/%2e%2e/x'],
    ['a%2Fb'],
    ['a\\b'],
    ['http://evil.example/rest/a'],
    ['http://repo.example:8081/rest/a'],
    ['https://repo.example:8080/rest/a'],
    ['http://repo.example:8080/other/a'],
    ['http://repo.example:8080/restricted'],
    ['a?token=nottx'],
    ['a?x=1'],
    ['tx:bad id/a'],
    ['tx:a/b?token=tx:c'],
  ])('refuses %s with a 400', (input) => {
    expect(() => resolveContextUri(ROOT, input)).toThrow(BadRequestError);
  });

  it('requires contextUri', () => {
    expect(() => resolveContextUri(ROOT, undefined)).toThrow(/contextUri is required/);
  });
});
