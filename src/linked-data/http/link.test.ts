import { describe, expect, it } from 'vitest';
import { MalformedLinkHeaderError, linkTargets, parseLinks } from './link.js';

describe('parseLinks', () => {
  it('reads several links, several rels and quoted parameters', () => {
    const links = parseLinks(
      '<http://a/x>; rel="original timegate", <http://a/v>;rel=memento; datetime="Wed, 01 Jan 2025 00:00:00 GMT"',
    );
    expect(links).toEqual([
      { uri: 'http://a/x', rels: ['original', 'timegate'], params: { rel: 'original timegate' } },
      {
        uri: 'http://a/v',
        rels: ['memento'],
        params: { rel: 'memento', datetime: 'Wed, 01 Jan 2025 00:00:00 GMT' },
      },
    ]);
  });

  it('joins repeated headers and keeps commas and semicolons inside <…> and quotes', () => {
    const links = parseLinks(['<http://a/x,y;z>; rel="type"; title="a, b; c"', '<b>; rel=describedby']);
    expect(links.map((l) => l.uri)).toEqual(['http://a/x,y;z', 'b']);
    expect(links[0]?.params.title).toBe('a, b; c');
    expect(linkTargets(links, 'DescribedBy')).toEqual(['b']);
  });

  it('keeps case-sensitive relation IRIs as sent', () => {
    const [link] = parseLinks('<http://e/f>; rel="http://fedora.info/definitions/fcrepo#ExternalContent"');
    expect(link?.rels).toEqual(['http://fedora.info/definitions/fcrepo#ExternalContent']);
  });

  it('is empty for no header', () => {
    expect(parseLinks(undefined)).toEqual([]);
    expect(parseLinks('')).toEqual([]);
    expect(parseLinks([])).toEqual([]);
  });

  it('throws MalformedLinkHeaderError on malformed input when strict', () => {
    expect(() => parseLinks('<<<>>>; rel=')).toThrow(MalformedLinkHeaderError);
    expect(() => parseLinks('<a>; rel=type, garbage')).toThrow(MalformedLinkHeaderError);
    expect(() => parseLinks('<unterminated; rel=type')).toThrow(MalformedLinkHeaderError);
  });

  it('skips malformed links without throwing when lenient', () => {
    expect(parseLinks('<<<>>>; rel=', { lenient: true })).toEqual([]);
    expect(parseLinks('garbage, <b>; rel=next', { lenient: true })).toEqual([
      { uri: 'b', rels: ['next'], params: { rel: 'next' } },
    ]);
    expect(parseLinks('<unterminated; rel=type', { lenient: true })).toEqual([]);
    expect(parseLinks('<a>; title*=abc', { lenient: true })).toEqual([]);
  });

  it('parses a link repeated across answers once, and shares it frozen', () => {
    const answer = (resource: string) =>
      `<http://www.w3.org/ns/ldp#BasicContainer>; rel="type", <${resource}>; rel="original timegate"`;
    const [typeA, selfA] = parseLinks(answer('http://r/a'));
    const [typeB, selfB] = parseLinks(answer('http://r/b'));
    expect(typeB).toBe(typeA);
    expect(selfB).not.toBe(selfA);
    expect(selfB?.uri).toBe('http://r/b');
    expect(Object.isFrozen(typeA) && Object.isFrozen(typeA?.rels) && Object.isFrozen(typeA?.params)).toBe(
      true,
    );
  });

  it('still refuses a malformed link it has seen before when strict, and skips it when lenient', () => {
    for (let i = 0; i < 2; i++) {
      expect(() => parseLinks('<a>; rel=type, <broken; rel=x')).toThrow(MalformedLinkHeaderError);
      expect(parseLinks('<a>; rel=type, <broken; rel=x', { lenient: true })).toEqual([
        { uri: 'a', rels: ['type'], params: { rel: 'type' } },
      ]);
    }
  });
});
