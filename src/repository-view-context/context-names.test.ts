import { describe, expect, it } from 'vitest';
import { LDP } from '../linked-data/rdf/vocab.js';
import type { RepositoryViewContext } from './context-builder.js';
import { ancestorIris, irisToName, lastSegment, withNames } from './context-names.js';
import { resolveContextUri } from './context-uri.js';

/** The breadcrumbs' IRIs from the path alone, and how the index's names are laid over a render. */
const ROOT = 'http://repo.test/rest';
const at = (uri: string, root = ROOT) => resolveContextUri(root, uri);

describe('ancestorIris', () => {
  it('is empty for the root, given with or without its slash', () => {
    expect(ancestorIris(ROOT, at(''), false)).toEqual([]);
    expect(ancestorIris(`${ROOT}/`, at(`${ROOT}/`), false)).toEqual([]);
  });

  it('steps from the root down to the parent, as Fedora names containers (no trailing slash)', () => {
    expect(ancestorIris(ROOT, at('a/b/c'), false)).toEqual([`${ROOT}/`, `${ROOT}/a`, `${ROOT}/a/b`]);
    expect(ancestorIris(ROOT, at('a'), false)).toEqual([`${ROOT}/`]);
  });

  it('keeps the trailing slash of LDP containers', () => {
    const root = 'http://solid.test/pod/';
    expect(ancestorIris(root, at('a/b/', root), true)).toEqual([root, `${root}a/`]);
    expect(ancestorIris(root, at('a/b/file.txt', root), true)).toEqual([root, `${root}a/`, `${root}a/b/`]);
  });

  it('ends a version’s breadcrumbs at the resource it is a version of', () => {
    expect(ancestorIris(ROOT, at('a/b/fcr:versions/v1'), false)).toEqual([
      `${ROOT}/`,
      `${ROOT}/a`,
      `${ROOT}/a/b`,
    ]);
  });
});

function rendered(children: string[]): RepositoryViewContext {
  const uri = `${ROOT}/a/b`;
  return {
    name: 'B',
    triple: null,
    parent: null,
    properties: [],
    metadata: [],
    children: children.map((child) => ({
      name: null,
      triple: { subject: uri, predicate: LDP.contains, object: child },
      parent: null,
      properties: [],
      metadata: [],
      children: [],
      versions: [],
      version: null,
      transactionDetails: null,
      features: { versioning: false, verifying: false, transacting: false, queryable: false, fixity: false },
      resource: false,
      isVersion: false,
      hasParent: false,
      ancestors: [],
    })),
    versions: [],
    version: null,
    transactionDetails: null,
    features: { versioning: false, verifying: false, transacting: false, queryable: false, fixity: false },
    resource: false,
    isVersion: false,
    hasParent: true,
    ancestors: [],
  };
}

describe('withNames', () => {
  const ancestors = [`${ROOT}/`, `${ROOT}/a%20b`, `${ROOT}/a%20b/c`];
  const children = [`${ROOT}/a%20b/c/d`, `${ROOT}/a%20b/c/e`, `${ROOT}/a%20b/c/f`];
  const summaries = new Map([
    [`${ROOT}/a%20b/c`, { name: 'Collection C', binary: false }],
    // The index names a resource without a title by its IRI: the breadcrumb shows its segment instead.
    [`${ROOT}/a%20b`, { name: `${ROOT}/a%20b`, binary: false }],
    [`${ROOT}/a%20b/c/d`, { name: 'Letter D', binary: false }],
    [`${ROOT}/a%20b/c/e`, { name: 'scan.tif', binary: true }],
  ]);

  it('asks the index for the ancestors below the root and the children, once each', () => {
    expect(irisToName(rendered(children), ancestors)).toEqual([...ancestors.slice(1), ...children]);
  });

  it('names children and ancestors from the index, leaving the render it was given unchanged', () => {
    const before = rendered(children);
    const copy = structuredClone(before);
    const named = withNames(before, ancestors, summaries);
    expect(named.children.map((child) => [child.name, child.resource])).toEqual([
      ['Letter D', false],
      ['scan.tif', true],
      // Not in the index: unnamed, and not known to be a binary.
      [null, false],
    ]);
    expect(named.ancestors).toEqual([
      { contextUri: `${ROOT}/`, name: 'Root' },
      { contextUri: `${ROOT}/a%20b`, name: 'a b' },
      { contextUri: `${ROOT}/a%20b/c`, name: 'Collection C' },
    ]);
    expect(before).toEqual(copy);
  });

  it('keeps the interface’s field order and puts ancestors last', () => {
    const named = withNames(rendered(children), ancestors, summaries);
    expect(Object.keys(named)).toEqual(Object.keys(rendered([])));
    expect(Object.keys(named).at(-1)).toBe('ancestors');
  });
});

describe('lastSegment', () => {
  it('decodes the last segment, ignoring a trailing slash, and keeps a malformed one as written', () => {
    expect(lastSegment('http://x/a/b%C3%A9/')).toBe('bé');
    expect(lastSegment('http://x/a/%E0%A4')).toBe('%E0%A4');
  });
});
