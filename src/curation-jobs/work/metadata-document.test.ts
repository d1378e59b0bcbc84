import type { Quad } from '@rdfjs/types';
import { describe, expect, it } from 'vitest';
import { blankNode, literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS, XSD } from '../../linked-data/rdf/vocab.js';
import { toWireTriple } from '../../repository-view-context/triple-format.js';
import type { Schema } from '../../schemas/schema.js';
import { FieldNaming } from './field-naming.js';
import { changesBetween, pureRemovals, readMetadata, UnmappableValueError } from './metadata-document.js';

const DATE = `${NS.xsd}date`;
const S = 'http://repo.example/rest/letters/1';
const schema = (id: number, abbreviation: string, namespace: string, properties: string[] = []): Schema => ({
  id,
  name: abbreviation,
  abbreviation,
  namespace,
  properties: properties.map((uri) => ({ uri, label: uri })),
});
const DC = schema(1, 'dc', NS.dc);
const DCTERMS = schema(2, 'dcterms', NS.dcterms, ['http://xmlns.com/foaf/0.1/name']);
const naming = new FieldNaming([DC, DCTERMS]);
const t = (predicate: string, object: Quad['object'], subject = S) =>
  quad(namedNode(subject), namedNode(predicate), object);
const wire = (quads: readonly Quad[]) => quads.map(toWireTriple);

describe('readMetadata', () => {
  it("names fields through the view's schemas and keeps only the resource's own metadata", () => {
    const quads = [
      t(`${NS.dc}title`, literal('Letters', 'en')),
      t(`${NS.dcterms}created`, literal('1843', namedNode(`${NS.xsd}gYear`))),
      t('http://xmlns.com/foaf/0.1/name', literal('Ada')),
      t(`${NS.dc}title`, literal('Briefe', 'de')),
      // server-managed, structural, about another subject, a blank node: none of them is metadata to map
      t(`${NS.fedora}created`, literal('2024-01-01T00:00:00Z', namedNode(XSD.dateTime))),
      t(`${NS.ldp}contains`, namedNode(`${S}/a`)),
      t(`${NS.dc}title`, literal('Other'), `${S}/a`),
      t(`${NS.dc}creator`, blankNode('b0')),
    ];
    const read = readMetadata(S, quads, naming);
    expect({ ...read.document }).toEqual({
      'dc:title': ['Letters', 'Briefe'],
      'dcterms:created': ['1843'],
      // in a metadata namespace of the view (a property's), but no schema's namespace: the full IRI
      'http://xmlns.com/foaf/0.1/name': ['Ada'],
    });
    expect(read.originals.get('dc:title')).toEqual([quads[0], quads[3]]);
  });

  it('names a namespace two schemas share after the first of them, and resolves both names', () => {
    const dcAgain = schema(3, 'elements', NS.dc);
    const shared = new FieldNaming([DC, dcAgain]);
    expect(shared.fieldOf(`${NS.dc}title`)).toBe('dc:title');
    expect(shared.predicateOf('dc:title')).toBe(`${NS.dc}title`);
    expect(shared.predicateOf('elements:title')).toBe(`${NS.dc}title`);
    const reversed = new FieldNaming([dcAgain, DC]);
    expect(reversed.fieldOf(`${NS.dc}title`)).toBe('elements:title');

    // Values written under either name land on the one predicate.
    const before = readMetadata(S, [t(`${NS.dc}title`, literal('Letters'))], shared);
    const change = changesBetween(before, { 'dc:title': ['Letters'], 'elements:title': ['Briefe'] }, shared);
    expect(wire(change.removed)).toEqual([]);
    expect(wire(change.added)).toEqual([{ subject: S, predicate: `${NS.dc}title`, object: '"Briefe"' }]);
  });

  it('names a predicate whose rest is not a plain name by its full IRI', () => {
    const broad = new FieldNaming([schema(4, 'purl', 'http://purl.org/')]);
    expect(broad.fieldOf(`${NS.dc}title`)).toBe(`${NS.dc}title`);
    expect(broad.predicateOf(`${NS.dc}title`)).toBe(`${NS.dc}title`);
    // Not a schema's abbreviation: read as an IRI (of no metadata namespace, so never written).
    expect(broad.predicateOf('nope:title')).toBe('nope:title');
    expect(broad.predicateOf('not a field')).toBeUndefined();
  });
});

describe('changesBetween', () => {
  const title = `${NS.dc}title`;

  it("keeps a transformed value's language tag and datatype, and leaves values in both untouched", () => {
    const quads = [
      t(title, literal('letters', 'en')),
      t(title, literal('Briefe', 'de')),
      t(`${NS.dcterms}created`, literal('1843-1-5', namedNode(DATE))),
    ];
    const before = readMetadata(S, quads, naming);
    const change = changesBetween(
      before,
      // Briefe moved position: still untouched.
      { 'dc:title': ['Briefe', 'Letters'], 'dcterms:created': ['1843-01-05'] },
      naming,
    );
    expect(wire(change.removed)).toEqual(wire([quads[0]!, quads[2]!]));
    expect(wire(change.added)).toEqual([
      { subject: S, predicate: title, object: '"Letters"@en' },
      { subject: S, predicate: `${NS.dcterms}created`, object: `"1843-01-05"^^<${DATE}>` },
    ]);
  });

  it('writes a new value as a plain literal and removes the values of a dropped field', () => {
    const quads = [
      t(title, literal('Letters', 'en')),
      t(`${NS.dc}subject`, namedNode('http://id.example/x')),
    ];
    const before = readMetadata(S, quads, naming);
    const change = changesBetween(before, { 'dc:title': ['Letters', 'Extra'], 'dc:date': ['1843'] }, naming);
    expect(wire(change.removed)).toEqual(wire([quads[1]!]));
    expect(wire(change.added)).toEqual([
      { subject: S, predicate: title, object: '"Extra"' },
      { subject: S, predicate: `${NS.dc}date`, object: '"1843"' },
    ]);
  });

  it('keeps an IRI an IRI, and fails the resource when the new value is no longer an absolute IRI', () => {
    const quads = [t(`${NS.dc}subject`, namedNode('http://id.example/old'))];
    const before = readMetadata(S, quads, naming);
    const change = changesBetween(before, { 'dc:subject': ['https://id.example/new'] }, naming);
    expect(change.added.map((q) => q.object.termType)).toEqual(['NamedNode']);
    expect(wire(change.added)).toEqual([
      { subject: S, predicate: `${NS.dc}subject`, object: 'https://id.example/new' },
    ]);
    expect(() => changesBetween(before, { 'dc:subject': ['id.example/new'] }, naming)).toThrow(
      new UnmappableValueError(
        'The value "id.example/new" replaces the IRI <http://id.example/old> but is not an absolute IRI',
      ),
    );
  });

  it('leaves blank-node objects alone', () => {
    const quads = [t(`${NS.dc}creator`, blankNode('b1')), t(`${NS.dc}creator`, literal('Ada'))];
    const before = readMetadata(S, quads, naming);
    expect({ ...before.document }).toEqual({ 'dc:creator': ['Ada'] });
    const change = changesBetween(before, {}, naming);
    expect(wire(change.removed)).toEqual(wire([quads[1]!]));
    expect(change.added).toEqual([]);
  });

  it('refuses a new field that names no metadata predicate of the view', () => {
    const before = readMetadata(S, [t(title, literal('Letters'))], naming);
    expect(() => changesBetween(before, { 'dc:title': ['Letters'], 'x:y': ['1'] }, naming)).toThrow(
      'The field x:y names no metadata predicate of this view',
    );
    // A server-managed predicate is not the view's metadata either.
    expect(() =>
      changesBetween(before, { 'dc:title': ['Letters'], [`${NS.fedora}lastModified`]: ['now'] }, naming),
    ).toThrow(`The field ${NS.fedora}lastModified names no metadata predicate of this view`);
  });

  it('adds a repeated value once and changes nothing when the document is unchanged', () => {
    const quads = [t(title, literal('A', 'en')), t(title, literal('B', 'en'))];
    const before = readMetadata(S, quads, naming);
    expect(changesBetween(before, before.document, naming)).toEqual({ removed: [], added: [] });
    const change = changesBetween(before, { 'dc:title': ['A', 'A', 'C', 'C'] }, naming);
    // B@en is replaced by C@en (its form); the second A would repeat a kept triple; C once.
    expect(wire(change.removed)).toEqual(wire([quads[1]!]));
    expect(wire(change.added)).toEqual([{ subject: S, predicate: title, object: '"C"@en' }]);
  });
});

describe('pureRemovals', () => {
  const date = `${NS.dcterms}date`;
  const title = `${NS.dc}title`;

  it('names the removed values nothing replaces: a field emptied, and values merged into fewer', () => {
    const quads = [
      t(date, literal('2020-03-25')),
      t(date, literal('03/25/2020')),
      t(title, literal('Letters')),
      t(`${NS.dc}subject`, literal('post')),
    ];
    const before = readMetadata(S, quads, naming);
    // Two dates normalized to one; the title rewritten; the subject dropped.
    const change = changesBetween(before, { 'dcterms:date': ['2020-03-25'], 'dc:title': ['Briefe'] }, naming);
    expect(wire(pureRemovals(change.removed, change.added))).toEqual(wire([quads[1]!, quads[3]!]));
  });

  it('names none when every removed value has its replacement', () => {
    const before = readMetadata(S, [t(title, literal('Letters')), t(date, literal('1920'))], naming);
    const change = changesBetween(before, { 'dc:title': ['Briefe'], 'dcterms:date': ['1920-01-01'] }, naming);
    expect(pureRemovals(change.removed, change.added)).toEqual([]);
  });
});
