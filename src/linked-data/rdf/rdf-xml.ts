import type N3 from 'n3';
import * as oxigraph from 'oxigraph';
import { ParsedSizeBudget, refuseXmlDtd } from './input-guard.js';
import { toN3Quad } from './terms.js';

/**
 * RDF/XML through Oxigraph's parser, for every caller: rdfxml-streaming-parser accepts truncated
 * documents silently (no error, no triples), which would read as an empty resource instead of an error.
 * Oxigraph expands DTD entities, so a DTD is refused before parsing; and its terms are real copies in
 * WebAssembly memory, so they are counted one by one from its iterator (an input given as a list) and
 * the parse stops as soon as they outgrow the input.
 */
export function readRdfXml(text: string, baseIri: string): N3.Quad[] {
  refuseXmlDtd(text);
  const budget = new ParsedSizeBudget(text.length);
  const quads: N3.Quad[] = [];
  for (const q of oxigraph.parse([text], { format: 'application/rdf+xml', base_iri: baseIri })) {
    budget.add(q);
    quads.push(toN3Quad(q));
  }
  return quads;
}

/** RDF/XML of N-Triples' statements (Oxigraph's writer, through a scratch store). */
export function writeRdfXml(ntriples: string): string {
  const store = new oxigraph.Store();
  store.load(ntriples, { format: 'application/n-triples' });
  return store.dump({ format: 'application/rdf+xml', from_graph_name: oxigraph.defaultGraph() });
}
