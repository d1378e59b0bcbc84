import type * as RDF from '@rdfjs/types';
import N3 from 'n3';
import { writeJsonLd } from './json-ld.js';
import type { RdfOutputType } from './media-types.js';
import { writeRdfXml } from './rdf-xml.js';
import { defaultGraph, quad } from './terms.js';
import { TURTLE_PREFIXES } from './vocab.js';

/**
 * Writes statements in an output type: N3.js for Turtle and N-Triples, jsonld for JSON-LD (expanded, or
 * compacted over the Turtle prefixes when `jsonLdProfile` asks for it), Oxigraph for RDF/XML. Graphs are
 * not written: every output type is a triple syntax.
 */
export async function serializeRdf(
  quads: readonly RDF.Quad[],
  type: RdfOutputType,
  jsonLdProfile?: string,
): Promise<string> {
  switch (type) {
    case 'text/turtle':
      return writeN3(quads, 'text/turtle', TURTLE_PREFIXES);
    case 'application/n-triples':
    case 'text/plain':
      return writeN3(quads, 'N-Triples');
    case 'application/ld+json':
      return writeJsonLd(
        writeN3(quads, 'N-Quads'),
        jsonLdProfile?.includes('compacted') === true ? TURTLE_PREFIXES : undefined,
      );
    case 'application/rdf+xml':
      return writeRdfXml(writeN3(quads, 'N-Triples'));
  }
}

/** Turtle without prefixes, as sent upstream: the empty IRI is written `<>` (the resource being created). */
export function writeTurtle(quads: readonly RDF.Quad[]): string {
  return writeN3(quads, 'text/turtle');
}

function writeN3(
  quads: readonly RDF.Quad[],
  format: string,
  prefixes?: Readonly<Record<string, string>>,
): string {
  const writer = new N3.Writer({ format, ...(prefixes === undefined ? {} : { prefixes: { ...prefixes } }) });
  let out = '';
  writer.addQuads(quads.map((q) => quad(q.subject, q.predicate, q.object, defaultGraph())));
  writer.end((error: unknown, result: string) => {
    if (error instanceof Error) throw error;
    out = result;
  });
  return out;
}

/** Reads N-Triples the service wrote itself (stored statements): well-formed, so no checks. */
export function parseStored(ntriples: string): N3.Quad[] {
  if (ntriples.trim() === '') return [];
  return new N3.Parser({ format: 'N-Triples' }).parse(ntriples);
}

/** Statements as stored: N-Triples, one a line, deterministic order, no duplicates. */
export function toStored(quads: readonly RDF.Quad[]): string {
  const writer = new N3.Writer({ format: 'N-Triples' });
  const lines = new Set<string>();
  for (const q of quads) lines.add(writer.quadToString(q.subject, q.predicate, q.object).trimEnd());
  return [...lines].sort().join('\n');
}
