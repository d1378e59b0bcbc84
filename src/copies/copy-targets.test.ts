import { describe, expect, it } from 'vitest';
import { CopyTargets, encodeSegment, lastSegment, segmentsBelow } from './copy-targets.js';

const SRC = 'http://src.example/rest/collection';

describe('CopyTargets', () => {
  it('maps a subtree under the target context (Fedora: no trailing slashes)', () => {
    const targets = new CopyTargets('FEDORA', 'http://dst.example/rest/into', SRC, 'SUBTREE');
    expect(targets.targetOf(SRC, 'CONTAINER')).toEqual({
      targetUri: 'http://dst.example/rest/into/collection',
      parentTargetUri: 'http://dst.example/rest/into',
      name: 'collection',
      depth: 0,
    });
    expect(targets.targetOf(`${SRC}/box/file.tif`, 'BINARY')).toEqual({
      targetUri: 'http://dst.example/rest/into/collection/box/file.tif',
      parentTargetUri: 'http://dst.example/rest/into/collection/box',
      name: 'file.tif',
      depth: 2,
    });
  });

  it('gives LDP containers a trailing slash and binaries none, whatever the source had', () => {
    const targets = new CopyTargets('LDP', 'http://css.example/into/', `${SRC}/`, 'SUBTREE');
    expect(targets.targetOf(`${SRC}/`, 'CONTAINER').targetUri).toBe('http://css.example/into/collection/');
    expect(targets.targetOf(`${SRC}/box`, 'CONTAINER')).toMatchObject({
      targetUri: 'http://css.example/into/collection/box/',
      parentTargetUri: 'http://css.example/into/collection/',
    });
    expect(targets.targetOf(`${SRC}/box/f.txt`, 'BINARY')).toMatchObject({
      targetUri: 'http://css.example/into/collection/box/f.txt',
      parentTargetUri: 'http://css.example/into/collection/box/',
    });
  });

  it('keeps odd names decoded and re-encodes them (spaces, unicode, %)', () => {
    const targets = new CopyTargets('FEDORA', 'http://dst.example/rest/', SRC, 'SUBTREE');
    const spaced = targets.targetOf(`${SRC}/my%20box/%C3%A9t%C3%A9%2050%25`, 'BINARY');
    expect(spaced.name).toBe('été 50%');
    expect(spaced.targetUri).toBe('http://dst.example/rest/collection/my%20box/%C3%A9t%C3%A9%2050%25');
    expect(spaced.parentTargetUri).toBe('http://dst.example/rest/collection/my%20box');
    // The target root itself is the parent as the job named it.
    expect(targets.targetOf(SRC, 'CONTAINER').parentTargetUri).toBe('http://dst.example/rest/');
    expect(encodeSegment('a(b) c')).toBe('a(b)%20c');
  });

  it('puts each hit of a listed scope directly under the target context', () => {
    const targets = new CopyTargets('FEDORA', 'http://dst.example/rest/hits', SRC, 'QUERY');
    expect(targets.targetOf('http://src.example/rest/elsewhere/deep/item', 'CONTAINER')).toEqual({
      targetUri: 'http://dst.example/rest/hits/item',
      parentTargetUri: 'http://dst.example/rest/hits',
      name: 'item',
      depth: 0,
    });
  });

  it('refuses what would escape the target context or is not in the source context', () => {
    const targets = new CopyTargets('FEDORA', 'http://dst.example/rest/into', SRC, 'SUBTREE');
    expect(() => targets.targetOf(`${SRC}/a/%2E%2E`, 'CONTAINER')).toThrow(/only dots/u);
    expect(() => targets.targetOf(`${SRC}/a%2Fb`, 'CONTAINER')).toThrow(/slash/u);
    expect(() => targets.targetOf(`${SRC}/fcr:versions`, 'CONTAINER')).toThrow(/Fedora endpoint/u);
    expect(() => targets.targetOf('http://src.example/rest/other', 'CONTAINER')).toThrow(/is not inside/u);
    expect(() => targets.targetOf('http://src.example/rest/collectionX', 'CONTAINER')).toThrow(
      /is not inside/u,
    );
    const ldp = new CopyTargets('LDP', 'http://css.example/into/', SRC, 'SUBTREE');
    expect(() => ldp.targetOf(`${SRC}/x.acl`, 'BINARY')).toThrow(/auxiliary/u);
    expect(() => targets.targetOf(`${SRC}/a%0Ab`, 'CONTAINER')).toThrow(/control/u);
    const fromRoot = new CopyTargets('LDP', 'http://css.example/into/', 'http://src.example/', 'SUBTREE');
    expect(() => fromRoot.targetOf('http://src.example/', 'CONTAINER')).toThrow(/has no name/u);
  });

  it('reads segments below an ancestor and last segments', () => {
    expect(segmentsBelow(`${SRC}/`, `${SRC}/a/b%20c/`)).toEqual(['a', 'b c']);
    expect(segmentsBelow(SRC, `${SRC}#frag`)).toEqual([]);
    expect(segmentsBelow(SRC, 'http://src.example/rest/collection2')).toBeUndefined();
    expect(lastSegment('http://x.example/a/b%25/')).toBe('b%');
    expect(lastSegment('http://x.example/a/%E0%A4%A')).toBe('%E0%A4%A');
  });
});
