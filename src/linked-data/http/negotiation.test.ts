import { describe, expect, it } from 'vitest';
import { negotiateMediaType } from './negotiation.js';

const OFFERED = ['text/turtle', 'application/ld+json', 'application/n-triples'] as const;

describe('negotiateMediaType', () => {
  it('answers the first offered without an Accept header', () => {
    expect(negotiateMediaType(undefined, OFFERED)).toEqual({ type: 'text/turtle', accepted: '' });
    expect(negotiateMediaType('  ', OFFERED)?.type).toBe('text/turtle');
    expect(negotiateMediaType(undefined, [])).toBeUndefined();
  });

  it('follows q-values, then specificity, then the order offered', () => {
    expect(negotiateMediaType('application/n-triples, text/turtle;q=0.5', OFFERED)?.type).toBe(
      'application/n-triples',
    );
    expect(negotiateMediaType('*/*;q=0.1, application/ld+json', OFFERED)?.type).toBe('application/ld+json');
    expect(negotiateMediaType('application/*', OFFERED)?.type).toBe('application/ld+json');
    expect(negotiateMediaType('*/*', OFFERED)?.type).toBe('text/turtle');
    expect(negotiateMediaType('Text/Turtle', OFFERED)?.type).toBe('text/turtle');
  });

  it('matches whatever the parameters, and hands back the entry naming the type', () => {
    const chosen = negotiateMediaType(
      'application/ld+json; profile="http://www.w3.org/ns/json-ld#compacted", text/turtle;q=0.5',
      OFFERED,
    );
    expect(chosen).toEqual({
      type: 'application/ld+json',
      accepted: 'application/ld+json; profile="http://www.w3.org/ns/json-ld#compacted"',
    });
  });

  it('is undefined when nothing offered is acceptable, and never throws on junk', () => {
    expect(negotiateMediaType('image/png', OFFERED)).toBeUndefined();
    expect(negotiateMediaType('text/turtle;q=0', OFFERED)).toBeUndefined();
    expect(negotiateMediaType(',,;;,garbage', OFFERED)).toBeUndefined();
    expect(negotiateMediaType('text/turtle;q=abc', OFFERED)?.type).toBe('text/turtle');
    expect(negotiateMediaType('text/turtle;bad', OFFERED)?.type).toBe('text/turtle');
  });
});
