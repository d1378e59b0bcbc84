import type { Quad, Term } from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import { termKey } from '../../curation-jobs/work/metadata-document.js';
import { blankNode, literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type { Schema } from '../../schemas/schema.js';
import type { SheetColumn } from '../spreadsheet.js';
import { rowChange, rowTermsOf } from './resource-row.js';

const S = 'http://repo.example/rest/letters/1';
const schema = (id: number, abbreviation: string, namespace: string): Schema => ({
  id,
  name: abbreviation,
  abbreviation,
  namespace,
  properties: [],
});
const naming = new FieldNaming([schema(1, 'dcterms', NS.dcterms), schema(2, 'ldp', NS.ldp)]);
const TITLE = `${NS.dcterms}title`;
const SUBJECT = `${NS.dcterms}subject`;
const DATE = `${NS.dcterms}date`;
const t = (predicate: string, object: Quad['object'], subject = S) =>
  quad(namedNode(subject), namedNode(predicate), object);
const column = (header: string, predicate: string, language: string | null = null): SheetColumn => ({
  header,
  predicate,
  language,
});
const keys = (terms: readonly Term[] | undefined) => terms?.map(termKey);
const triples = (quads: readonly Quad[]) =>
  quads.map((q) => `${q.predicate.value} ${termKey(q.object)}`).sort();

const RESOURCE = [
  t(TITLE, literal('Letters', 'en')),
  t(TITLE, literal('Letters (2nd)', 'EN')),
  t(TITLE, literal('Briefe', 'de')),
  t(TITLE, literal('Untagged')),
  t(SUBJECT, namedNode('http://id.example/letters')),
  t(SUBJECT, literal('Correspondence')),
  t(SUBJECT, blankNode('b0')),
  t(DATE, literal('1843', namedNode(`${NS.xsd}gYear`))),
  // not metadata of the view: structural, another namespace, another subject
  t(`${NS.ldp}contains`, namedNode(`${S}/a`)),
  t(`${NS.fedora}created`, literal('2024-01-01')),
  t(TITLE, literal('Other'), `${S}/a`),
];

describe('rowTermsOf', () => {
  it("groups the resource's own metadata by column header, languages lower-cased, blank nodes and structure left out", () => {
    const row = rowTermsOf(S, RESOURCE, naming);
    expect([...row.keys()].sort()).toEqual([
      'dcterms:date',
      'dcterms:subject',
      'dcterms:title',
      'dcterms:title[de]',
      'dcterms:title[en]',
    ]);
    expect(keys(row.get('dcterms:title[en]'))).toEqual(
      keys([literal('Letters', 'en'), literal('Letters (2nd)', 'en')]),
    );
    expect(keys(row.get('dcterms:subject'))).toEqual(
      keys([namedNode('http://id.example/letters'), literal('Correspondence')]),
    );
    expect(keys(row.get('dcterms:date'))).toEqual(keys([literal('1843', namedNode(`${NS.xsd}gYear`))]));
  });

  it('holds a value once when the repository holds it under tags differing in case', () => {
    const row = rowTermsOf(S, [t(TITLE, literal('A', 'en')), t(TITLE, literal('A', 'EN'))], naming);
    expect(row.get('dcterms:title[en]')).toHaveLength(1);
  });
});

describe('rowChange', () => {
  it('is empty for the cells the resource already has, whatever their order', () => {
    const columns = [
      column('dcterms:title[en]', TITLE, 'en'),
      column('dcterms:subject', SUBJECT),
      column('dcterms:date', DATE),
    ];
    const cells = [
      [literal('Letters (2nd)', 'en'), literal('Letters', 'en')],
      [literal('Correspondence'), namedNode('http://id.example/letters')],
      [literal('1843', namedNode(`${NS.xsd}gYear`))],
    ];
    expect(rowChange(S, columns, cells, RESOURCE, naming)).toEqual({ removed: [], added: [] });
  });

  it("replaces only the column's predicate and language, leaving other languages, absent columns and blank nodes", () => {
    const change = rowChange(
      S,
      [column('dcterms:title[en]', TITLE, 'en'), column('dcterms:subject', SUBJECT)],
      [[literal('Letters', 'en'), literal('Epistles', 'en')], [namedNode('http://id.example/mail')]],
      RESOURCE,
      naming,
    );
    expect(triples(change.removed)).toEqual(
      triples([
        t(TITLE, literal('Letters (2nd)', 'en')),
        t(SUBJECT, namedNode('http://id.example/letters')),
        t(SUBJECT, literal('Correspondence')),
      ]),
    );
    expect(triples(change.added)).toEqual(
      triples([t(TITLE, literal('Epistles', 'en')), t(SUBJECT, namedNode('http://id.example/mail'))]),
    );
    expect(change.added.every((q) => q.subject.value === S)).toBe(true);
  });

  it('removes every value of the column for an empty cell and adds a value repeated in a cell once', () => {
    const change = rowChange(
      S,
      [column('dcterms:title', TITLE), column('dcterms:date', DATE)],
      [[], [literal('1844', namedNode(`${NS.xsd}gYear`)), literal('1844', namedNode(`${NS.xsd}gYear`))]],
      RESOURCE,
      naming,
    );
    expect(triples(change.removed)).toEqual(
      triples([t(TITLE, literal('Untagged')), t(DATE, literal('1843', namedNode(`${NS.xsd}gYear`)))]),
    );
    expect(triples(change.added)).toEqual(triples([t(DATE, literal('1844', namedNode(`${NS.xsd}gYear`)))]));
  });

  it('tells a plain text from the same text typed or as an IRI', () => {
    const change = rowChange(S, [column('dcterms:date', DATE)], [[literal('1843')]], RESOURCE, naming);
    expect(change.removed).toHaveLength(1);
    expect(triples(change.added)).toEqual(triples([t(DATE, literal('1843'))]));
  });

  it('adds everything to a resource that has nothing yet (a new child)', () => {
    const change = rowChange(
      S,
      [column('dcterms:title[el]', TITLE, 'el')],
      [[literal('Ἐπιστολαί', 'el')]],
      [],
      naming,
    );
    expect(change.removed).toEqual([]);
    expect(triples(change.added)).toEqual(triples([t(TITLE, literal('Ἐπιστολαί', 'el'))]));
  });
});
