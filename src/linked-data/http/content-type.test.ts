import { describe, expect, it } from 'vitest';
import { mediaTypeOf, mediaTypeParameter } from './content-type.js';

describe('mediaTypeOf', () => {
  it('lower-cases and drops parameters', () => {
    expect(mediaTypeOf('Text/Turtle; charset=UTF-8')).toBe('text/turtle');
    expect(mediaTypeOf('application/ld+json;profile="http://www.w3.org/ns/json-ld#compacted"')).toBe(
      'application/ld+json',
    );
  });

  it('is empty when absent or blank', () => {
    expect(mediaTypeOf(undefined)).toBe('');
    expect(mediaTypeOf('')).toBe('');
    expect(mediaTypeOf('  ')).toBe('');
  });

  it('keeps the leading token of a malformed header, without throwing', () => {
    expect(mediaTypeOf('text/plain; charset')).toBe('text/plain');
    expect(mediaTypeOf('text/plain;;')).toBe('text/plain');
    expect(mediaTypeOf('Turtle')).toBe('turtle');
    expect(mediaTypeOf('; charset=utf-8')).toBe('');
  });
});

describe('mediaTypeParameter', () => {
  it('reads a parameter, unquoted, whatever the case of its name', () => {
    expect(mediaTypeParameter('application/ld+json; Profile="a b"', 'profile')).toBe('a b');
    expect(mediaTypeParameter('text/turtle; charset=utf-8', 'charset')).toBe('utf-8');
    expect(mediaTypeParameter('text/turtle', 'charset')).toBeUndefined();
  });

  it('still finds parameters in a malformed header', () => {
    expect(mediaTypeParameter('text/turtle; bad; charset="utf-8"', 'charset')).toBe('utf-8');
    expect(mediaTypeParameter('garbage', 'charset')).toBeUndefined();
  });
});
