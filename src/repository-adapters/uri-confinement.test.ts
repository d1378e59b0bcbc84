import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../shared/errors.js';
import { confineUri, isInsideRoot, parseRoot } from './uri-confinement.js';

const root = parseRoot('http://repo.example:8080/rest');

describe('parseRoot', () => {
  it('normalises the root to end with a slash', () => {
    expect(parseRoot('http://repo.example:8080/rest')).toEqual({
      href: 'http://repo.example:8080/rest/',
      origin: 'http://repo.example:8080',
      path: '/rest/',
    });
    expect(parseRoot('https://REPO.example/').href).toBe('https://repo.example/');
    expect(parseRoot('http://repo.example:80/fcrepo/rest/').href).toBe('http://repo.example/fcrepo/rest/');
  });

  it.each([
    ['', 'empty'],
    ['/rest/', 'relative'],
    ['ftp://repo.example/rest/', 'not http'],
    ['file:///etc/passwd', 'not http'],
    ['http://user:secret@repo.example/rest/', 'credentials'],
    ['http://repo.example/rest/?x=1', 'query'],
    ['http://repo.example/rest/#top', 'fragment'],
    ['http://repo.example/re st/', 'whitespace'],
  ])('refuses %j (%s)', (uri) => {
    expect(() => parseRoot(uri)).toThrow(BadRequestError);
  });

  it('never echoes credentials in its refusal', () => {
    expect(() => parseRoot('http://user:s3cret-pass@repo.example/rest/')).toThrow(
      /must not carry credentials/,
    );
    try {
      parseRoot('http://user:s3cret-pass@repo.example/rest/');
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret-pass');
    }
  });
});

describe('confineUri', () => {
  it.each([
    ['http://repo.example:8080/rest/', 'http://repo.example:8080/rest/'],
    ['http://repo.example:8080/rest', 'http://repo.example:8080/rest'],
    ['http://repo.example:8080/rest/a/b', 'http://repo.example:8080/rest/a/b'],
    ['http://REPO.example:8080/rest/a', 'http://repo.example:8080/rest/a'],
    ['http://repo.example:8080/rest/a/./b', 'http://repo.example:8080/rest/a/b'],
    ['http://repo.example:8080/rest/a/../b', 'http://repo.example:8080/rest/b'],
    ['http://repo.example:8080/rest/fcr:tx/abc', 'http://repo.example:8080/rest/fcr:tx/abc'],
    [
      'http://repo.example:8080/rest/a/fcr:versions/20200101000000',
      'http://repo.example:8080/rest/a/fcr:versions/20200101000000',
    ],
    ['http://repo.example:8080/rest/caf%C3%A9', 'http://repo.example:8080/rest/caf%C3%A9'],
    ['http://repo.example:8080/rest/café', 'http://repo.example:8080/rest/caf%C3%A9'],
    ['http://repo.example:8080/rest/a?inline=true', 'http://repo.example:8080/rest/a?inline=true'],
  ])('accepts %j as %j', (uri, expected) => {
    expect(confineUri(root, uri)).toBe(expected);
  });

  it.each([
    ['http://other.example:8080/rest/a', 'another host'],
    ['http://repo.example:8081/rest/a', 'another port'],
    ['https://repo.example:8080/rest/a', 'another scheme'],
    ['http://repo.example:8080/restricted', 'a sibling sharing the prefix text'],
    ['http://repo.example:8080/', 'the origin above the root'],
    ['http://repo.example:8080/rest/../admin', 'dot segments climbing out'],
    ['http://repo.example:8080/rest/a/../../admin', 'dot segments climbing out from below'],
    ['http://repo.example:8080/rest/%2e%2e/admin', 'encoded dots'],
    ['http://repo.example:8080/rest/%2E%2E/admin', 'encoded dots, upper case'],
    ['http://repo.example:8080/rest/.%2e/admin', 'half-encoded dots'],
    ['http://repo.example:8080/rest/a%2F..%2F..%2Fadmin', 'encoded slashes'],
    ['http://repo.example:8080/rest/a%2fb', 'an encoded slash'],
    ['http://repo.example:8080/rest/a%5C..%5Cadmin', 'encoded backslashes'],
    ['http://repo.example:8080/rest\\..\\admin', 'raw backslashes'],
    ['http://repo.example:8080/rest/a%00b', 'an encoded NUL'],
    ['http://repo.example:8080/rest/a\nb', 'a newline'],
    ['http://repo.example:8080/rest/a\tb', 'a tab'],
    ['http://repo.example:8080/rest/a b', 'a space'],
    ['http://user:pw@repo.example:8080/rest/a', 'credentials'],
    ['http://repo.example:8080/rest/a#frag', 'a fragment'],
    ['//repo.example:8080/rest/a', 'a scheme-relative reference'],
    ['/rest/a', 'a relative reference'],
    ['a/b', 'a relative path'],
    ['javascript:alert(1)', 'another scheme'],
    ['', 'nothing'],
    [`http://repo.example:8080/rest/${'a'.repeat(5000)}`, 'an over-long URI'],
  ])('refuses %j (%s)', (uri) => {
    expect(() => confineUri(root, uri)).toThrow(BadRequestError);
    expect(isInsideRoot(root, uri)).toBe(false);
  });

  it('confines to the origin when the root is the origin itself', () => {
    const top = parseRoot('http://solid.example:3000/');
    expect(confineUri(top, 'http://solid.example:3000/a/b/')).toBe('http://solid.example:3000/a/b/');
    // The URL parser clamps dot segments at "/": they cannot leave the origin.
    expect(confineUri(top, 'http://solid.example:3000/../x')).toBe('http://solid.example:3000/x');
    expect(() => confineUri(top, 'http://solid.example:3001/a')).toThrow(BadRequestError);
  });
});
