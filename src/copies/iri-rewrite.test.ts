import { describe, expect, it } from 'vitest';
import { blankNode, literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { NS, PREMIS, RDF_TYPE } from '../linked-data/rdf/vocab.js';
import type { ResourceDescription } from '../repository-adapters/repository-adapter.js';
import {
  copyStatements,
  IriRewriter,
  isDerivedFrom,
  missingStatements,
  PROV_WAS_DERIVED_FROM,
  userSnapshot,
} from './iri-rewrite.js';

const S = 'http://src.example/rest/col';
const T = 'http://dst.example/rest/into/col';
const rewriter = new IriRewriter(
  new Map([
    [S, T],
    [`${S}/a`, `${T}/a`],
    [`${S}/a/f.bin`, `${T}/a/f.bin`],
  ]),
);

describe('IriRewriter', () => {
  it('rewrites IRIs of the copied set, with and without trailing slash, and their fragments', () => {
    expect(rewriter.rewrite(`${S}/a`)).toBe(`${T}/a`);
    expect(rewriter.rewrite(`${S}/a/`)).toBe(`${T}/a`);
    expect(rewriter.rewrite(`${S}/a#part`)).toBe(`${T}/a#part`);
    expect(rewriter.rewrite(`${S}/a/#part`)).toBe(`${T}/a#part`);
    expect(rewriter.rewrite(`${S}/b`)).toBe(`${S}/b`);
    expect(rewriter.rewrite('http://elsewhere.example/x')).toBe('http://elsewhere.example/x');
  });
});

describe('copyStatements', () => {
  const uri = `${S}/a`;
  const description: ResourceDescription = {
    uri,
    isBinary: false,
    children: [`${S}/a/f.bin`],
    quads: [
      quad(namedNode(uri), namedNode(`${NS.dc}title`), literal('Titel', 'de')),
      quad(namedNode(uri), namedNode(`${NS.dc}title`), literal('Title', 'en')),
      quad(namedNode(uri), namedNode(`${NS.dcterms}hasPart`), namedNode(`${S}/a/f.bin`)),
      quad(namedNode(uri), namedNode(`${NS.dcterms}relation`), namedNode('http://elsewhere.example/x')),
      quad(namedNode(`${uri}#note`), namedNode(`${NS.dc}description`), literal('a fragment')),
      quad(namedNode(uri), namedNode(`${NS.dc}subject`), blankNode('b1')),
      quad(blankNode('b1'), namedNode(`${NS.dc}title`), literal('nested')),
      // Server-managed: never copied.
      quad(namedNode(uri), namedNode(`${NS.ldp}contains`), namedNode(`${S}/a/f.bin`)),
      quad(namedNode(uri), namedNode(RDF_TYPE), namedNode(`${NS.ldp}BasicContainer`)),
      quad(namedNode(uri), namedNode(`${NS.fedora}created`), literal('2020-01-01')),
      quad(namedNode(uri), namedNode(PREMIS.hasSize), literal('3')),
      quad(namedNode(uri), namedNode(`${NS.dcterms}modified`), literal('2020-01-01')),
      // About another resource: not this one's.
      quad(namedNode(S), namedNode(`${NS.dc}title`), literal('the parent')),
    ],
  };

  it('keeps user statements, rewrites internal IRIs, drops server-managed ones and adds the derivation', () => {
    const { statements, others, all } = copyStatements(description, `${T}/a`, rewriter);
    expect(statements.map((s) => `${s.predicate} ${s.object.value}`).sort()).toEqual(
      [
        `${NS.dc}title Title`,
        `${NS.dc}title Titel`,
        `${NS.dcterms}hasPart ${T}/a/f.bin`,
        `${NS.dcterms}relation http://elsewhere.example/x`,
        `${PROV_WAS_DERIVED_FROM} ${uri}`,
      ].sort(),
    );
    expect(statements.find((s) => s.object.value === 'Titel')?.object).toMatchObject({ language: 'de' });
    // Fragments, and both statements of the blank node (sent together, after creation).
    expect(others.map((q) => `${q.subject.value} ${q.object.value}`).sort()).toEqual([
      'b1 nested',
      `${T}/a b1`,
      `${T}/a#note a fragment`,
    ]);
    expect(all).toHaveLength(8);
  });

  it('tells a copy by its derivation, what it lacks, and snapshots its user statements', () => {
    const { all } = copyStatements(description, `${T}/a`, rewriter);
    const copy: ResourceDescription = {
      uri: `${T}/a/`,
      isBinary: false,
      children: [],
      quads: all.slice(0, 3),
    };
    expect(isDerivedFrom(copy, uri)).toBe(false);
    // The link to the blank node is missing: the blank node's statement comes with it.
    expect(missingStatements(copy, all).map((q) => q.object.value)).toEqual([
      'http://elsewhere.example/x',
      'a fragment',
      'b1',
      uri,
      'nested',
    ]);
    const full: ResourceDescription = { ...copy, quads: [...all] };
    expect(isDerivedFrom(full, uri)).toBe(true);
    expect(missingStatements(full, all)).toEqual([]);
    const relabelled: ResourceDescription = {
      ...full,
      quads: all.map((q) =>
        q.subject.termType === 'BlankNode' ? quad(blankNode('other'), q.predicate, q.object) : q,
      ),
    };
    expect(userSnapshot(relabelled)).toBe(userSnapshot(full));
    expect(userSnapshot(full)).not.toBe(userSnapshot(copy));
  });
});
