import { describe, expect, it } from 'vitest';
import { binaryFile, manifestPath, resourceDirectory, segmentName, segmentsBelow } from './bag-paths.js';

const ROOT = 'http://repo.example/rest/';
const SCOPE = 'http://repo.example/rest/letters';

describe('bag paths', () => {
  it('keeps plain names and places each resource below the scope', () => {
    expect(resourceDirectory(SCOPE, SCOPE, ROOT)).toBe('data');
    expect(resourceDirectory(`${SCOPE}/box-1/folder_2`, SCOPE, ROOT)).toBe('data/box-1/folder_2');
    expect(binaryFile('data/box-1/scan.tif', `${SCOPE}/box-1/scan.tif`)).toBe('data/box-1/scan.tif/scan.tif');
  });

  it('never yields . or .. and never leaves data/, whatever the IRI says (path traversal)', () => {
    for (const raw of ['..', '.', '%2E%2E', '%2e', '.hidden', '..%2F..%2Fetc', '%2F', 'a%5Cb', '%00'])
      for (const segment of segmentName(raw).split('/')) {
        expect(segment, raw).not.toBe('..');
        expect(segment, raw).not.toBe('.');
        expect(segmentName(raw), raw).not.toMatch(/[/\\\0]/);
      }
    expect(segmentName('%2E%2E')).toBe('%2E.');
    expect(segmentName('..%2F..%2Fetc')).toBe('%2E.%2F..%2Fetc');
    // A scope whose IRI has dot segments is not fooled either: segments come from the IRI's text.
    expect(resourceDirectory(`${SCOPE}/%2E%2E/%2E%2E/secret`, SCOPE, ROOT)).toBe('data/%2E./%2E./secret');
  });

  it('encodes what is unsafe in file names one-to-one, and the bag’s own names never meet a resource’s', () => {
    expect(segmentName('a b')).toBe('a%20b');
    expect(segmentName('100%25')).toBe('100%25');
    expect(segmentName('100%')).toBe('100%25');
    expect(segmentName('ünï')).toBe('%C3%BCn%C3%AF');
    expect(segmentName('_metadata.ttl')).toBe('%5Fmetadata.ttl');
    expect(segmentName('')).toBe('_empty');
    const names = ['a b', 'a%20b', 'a+b', 'A B', '_x', '%5Fx', '.x', '%2Ex'].map(segmentName);
    // Segments that decode to the same name ('%20' and a space, '%5F' and '_') are the same file name;
    // different names never are.
    expect(names[0]).toBe(names[1]);
    expect(new Set(names.slice(1)).size).toBe(names.length - 1 - 2);
  });

  it('puts a resource outside the scope under data/_view/ by its path in the view, and refuses one outside the view', () => {
    expect(resourceDirectory(`${ROOT}elsewhere/member`, SCOPE, ROOT)).toBe('data/_view/elsewhere/member');
    expect(() => resourceDirectory('http://other.example/x', SCOPE, ROOT)).toThrow(
      /not inside the repository view/,
    );
    // A sibling whose name starts like the scope's is not below it.
    expect(segmentsBelow(`${SCOPE}-2/a`, SCOPE)).toBeUndefined();
  });

  it('writes %, CR and LF percent-encoded in manifests', () => {
    expect(manifestPath('data/a%20b/x\ny\r')).toBe('data/a%2520b/x%0Ay%0D');
  });
});
