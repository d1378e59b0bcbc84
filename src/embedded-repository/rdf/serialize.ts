import jsonld from 'jsonld';
import N3 from 'n3';
import type { Quad } from 'n3';
import * as oxigraph from 'oxigraph';
import { TURTLE_PREFIXES } from './vocab.js';

/** The RDF media types the repository writes, in the order used when the client accepts anything. */
export const RDF_OUTPUT_TYPES = [
  'text/turtle',
  'application/ld+json',
  'application/n-triples',
  'application/rdf+xml',
  'text/plain',
] as const;
export type RdfOutputType = (typeof RDF_OUTPUT_TYPES)[number];

/** Content-Type header values for each output type. */
export function contentTypeOf(type: RdfOutputType): string {
  return type === 'text/plain' ? 'text/plain; charset=utf-8' : `${type}; charset=utf-8`;
}

/** Writes triples in the negotiated format. `jsonLdProfile` selects compacted JSON-LD (expanded by default). */
export async function serializeRdf(
  quads: readonly Quad[],
  type: RdfOutputType,
  jsonLdProfile?: string,
): Promise<string> {
  switch (type) {
    case 'text/turtle':
      return writeN3(quads, 'text/turtle');
    case 'application/n-triples':
    case 'text/plain':
      return writeN3(quads, 'N-Triples');
    case 'application/ld+json': {
      const nquads = writeN3(quads, 'N-Quads');
      const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads', useNativeTypes: false });
      if (jsonLdProfile?.includes('compacted') === true) {
        return JSON.stringify(await jsonld.compact(expanded, { '@context': { ...TURTLE_PREFIXES } }));
      }
      return JSON.stringify(expanded);
    }
    case 'application/rdf+xml': {
      const store = new oxigraph.Store();
      store.load(writeN3(quads, 'N-Triples'), { format: 'application/n-triples' });
      return store.dump({ format: 'application/rdf+xml', from_graph_name: oxigraph.defaultGraph() });
    }
  }
}

function writeN3(quads: readonly Quad[], format: string): string {
  const writer = new N3.Writer({
    format,
    ...(format === 'text/turtle' ? { prefixes: { ...TURTLE_PREFIXES } } : {}),
  });
  let out = '';
  writer.addQuads([...quads]);
  writer.end((error: unknown, result: string) => {
    if (error instanceof Error) throw error;
    out = result;
  });
  return out;
}
