import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { parseRdf } from '../linked-data/rdf/parse.js';
import { LDP } from '../linked-data/rdf/vocab.js';
import type { ResourceDescription } from '../repository-adapters/repository-adapter.js';
import { buildContext } from './context-builder.js';

/** The context builder on the Fedora 4 RDF/XML of ../shared/fixtures/fedora4 (CAP's mock container). */
// A copy of ../shared/fixtures/fedora4, so the suite runs from a clean clone alone.
const FIXTURES = path.resolve(import.meta.dirname, '../../test/fixtures/fedora4');
const URI = 'http://localhost:9100/mock/fcrepo/rest/path/to/container';
const FEATURES = { versioning: true, verifying: true, transacting: true, queryable: true, fixity: true };

async function fixture(): Promise<ResourceDescription> {
  const quads = await parseRdf(
    fs.readFileSync(path.join(FIXTURES, 'container.rdf.xml'), 'utf8'),
    'application/rdf+xml',
    UPSTREAM_ANSWER,
    URI,
  );
  return {
    uri: URI,
    isBinary: false,
    quads,
    children: quads.filter((q) => q.predicate.value === LDP.contains).map((q) => q.object.value),
    parent: quads.find((q) => q.predicate.value === 'http://fedora.info/definitions/v4/repository#hasParent')
      ?.object.value,
  };
}

describe('buildContext on the Fedora 4 fixture', () => {
  it('names the context from dc:title and finds its parent and child', async () => {
    const context = buildContext({
      description: await fixture(),
      isRoot: false,
      metadataPrefixes: [],
      features: FEATURES,
      versions: [],
    });
    expect(context.name).toBe('Cap Test');
    expect(context.parent).toEqual({
      subject: URI,
      predicate: 'http://fedora.info/definitions/v4/repository#hasParent',
      object: 'http://labs.library.tamu.edu/fcrepo/rest/',
    });
    expect(context.hasParent).toBe(true);
    expect(context.children.map((child) => child.triple)).toEqual([
      { subject: URI, predicate: LDP.contains, object: `${URI}/path/to/another-container` },
    ]);
    expect(context.triple).toEqual({
      subject: URI,
      predicate: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type',
      object: 'http://fedora.info/definitions/v4/repository#Container',
    });
    expect(context.resource).toBe(false);
  });

  it('puts every non-structural triple in properties when the view has no schemas', async () => {
    const context = buildContext({
      description: await fixture(),
      isRoot: false,
      metadataPrefixes: [],
      features: FEATURES,
      versions: [],
    });
    expect(context.metadata).toEqual([]);
    // 4 rdf:type, dc ×5, dcterms ×2, fedora created/lastModified/createdBy/lastModifiedBy/writable.
    expect(context.properties).toHaveLength(16);
    expect(context.properties).toContainEqual({
      subject: URI,
      predicate: 'http://purl.org/dc/elements/1.1/title',
      object: '"Cap Test"',
    });
    expect(context.properties).toContainEqual({
      subject: URI,
      predicate: 'http://fedora.info/definitions/v4/repository#created',
      object: '"2018-01-10T17:17:10.43Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>',
    });
    expect(context.properties.map((p) => p.predicate)).not.toContain(
      'http://fedora.info/definitions/v4/repository#hasVersions',
    );
  });

  it('moves the Dublin Core triples to metadata with a Dublin Core schema, each triple in exactly one list', async () => {
    const context = buildContext({
      description: await fixture(),
      isRoot: false,
      metadataPrefixes: ['http://purl.org/dc/elements/1.1/'],
      features: FEATURES,
      versions: [],
    });
    expect(context.metadata.map((m) => m.predicate).sort()).toEqual(
      ['abstract', 'creator', 'identifier', 'subject', 'title'].map(
        (local) => `http://purl.org/dc/elements/1.1/${local}`,
      ),
    );
    expect(context.properties).toHaveLength(11);
    const all = [...context.metadata, ...context.properties].map((t) => JSON.stringify(t));
    expect(new Set(all).size).toBe(all.length);
  });

  it('names the root "Root" and a version "<name> (<label>)"', async () => {
    const root = buildContext({
      description: { uri: 'http://h/rest/', isBinary: false, quads: [], children: [] },
      isRoot: true,
      metadataPrefixes: [],
      features: FEATURES,
      versions: [],
    });
    expect(root.name).toBe('Root');
    const description = await fixture();
    const version = buildContext({
      description: { ...description, uri: `${URI}/fcr:versions/TestVersion1`, quads: description.quads },
      isRoot: false,
      metadataPrefixes: [],
      features: FEATURES,
      versions: [],
    });
    expect(version).toMatchObject({ version: 'TestVersion1', isVersion: true });
    expect(version.parent?.object).toBe(URI);
  });
});
