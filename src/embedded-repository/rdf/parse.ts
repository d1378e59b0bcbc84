import jsonld from 'jsonld';
import N3 from 'n3';
import type { Quad } from 'n3';
import * as oxigraph from 'oxigraph';
import {
  checkParsedSize,
  ParsedSizeBudget,
  RdfInputRefusedError,
  refuseXmlDtd,
} from '../../shared/rdf-input-guard.js';
import { hasLoneSurrogate, LONE_SURROGATE_PROBLEM } from '../../shared/unicode.js';
import { RepositoryError } from '../http/errors.js';
import { isValidIri, toN3Quad } from './terms.js';

/** Media types the repository parses as RDF, mapped to the parser used. */
export const RDF_INPUT_TYPES: Readonly<Record<string, 'turtle' | 'ntriples' | 'jsonld' | 'rdfxml'>> = {
  'text/turtle': 'turtle',
  'application/x-turtle': 'turtle',
  'text/n3': 'turtle',
  'application/n-triples': 'ntriples',
  'application/ld+json': 'jsonld',
  'application/rdf+xml': 'rdfxml',
};

export function isRdfMediaType(mediaType: string): boolean {
  return mediaType in RDF_INPUT_TYPES;
}

interface JsonLdQuad {
  subject: { termType: string; value: string };
  predicate: { termType: string; value: string };
  object: { termType: string; value: string; datatype?: { value: string }; language?: string };
  graph: { termType: string; value: string };
}

/**
 * Parses a request body into triples, resolving relative IRIs against `baseIri` (so `<>` is the
 * resource). Syntax errors, named graphs, invalid IRIs, remote JSON-LD contexts, RDF/XML declaring a DTD
 * and output far larger than the body (rdf-input-guard) are 400.
 */
export async function parseRdf(body: string, mediaType: string, baseIri: string): Promise<Quad[]> {
  const kind = RDF_INPUT_TYPES[mediaType];
  let quads: Quad[] = [];
  try {
    switch (kind) {
      // N3 and JSON-LD answer arrays whose long IRIs share strings (prefix + local name is a lazy
      // concatenation), so counting afterwards is cheap and still before anything is stored.
      case 'turtle':
        quads = checkParsedSize(new N3.Parser({ baseIRI: baseIri, format: 'text/turtle' }).parse(body), body);
        break;
      case 'ntriples':
        quads = checkParsedSize(new N3.Parser({ baseIRI: baseIri, format: 'N-Triples' }).parse(body), body);
        break;
      case 'jsonld':
        quads = checkParsedSize(await parseJsonLd(body, baseIri), body);
        break;
      case 'rdfxml':
        quads = parseRdfXml(body, baseIri);
        break;
      case undefined:
        throw RepositoryError.unsupportedMediaType(`Unsupported RDF media type ${mediaType}`);
    }
  } catch (error) {
    if (error instanceof RepositoryError) throw error;
    if (error instanceof RdfInputRefusedError) throw RepositoryError.badRequest(error.message);
    const message = error instanceof Error ? error.message : String(error);
    throw RepositoryError.badRequest(`Malformed ${mediaType} body: ${message.slice(0, 300)}`);
  }
  for (const q of quads) {
    if (q.graph.termType !== 'DefaultGraph')
      throw RepositoryError.badRequest('Named graphs are not accepted');
    for (const term of [q.subject, q.predicate, q.object]) {
      if (term.termType === 'NamedNode' && !isValidIri(term.value)) {
        throw RepositoryError.badRequest(`Invalid IRI <${term.value.slice(0, 200)}>`);
      }
      // JSON's "\ud800" decodes to a lone surrogate (the RDF syntaxes' parsers refuse theirs).
      const datatype = term.termType === 'Literal' ? term.datatype.value : '';
      if (hasLoneSurrogate(term.value) || hasLoneSurrogate(datatype)) {
        throw RepositoryError.badRequest(`Not valid Unicode: ${LONE_SURROGATE_PROBLEM}`);
      }
    }
  }
  return quads;
}

async function parseJsonLd(body: string, baseIri: string): Promise<Quad[]> {
  const document = JSON.parse(body) as jsonld.JsonLdDocument;
  const dataset = (await jsonld.toRDF(document, {
    base: baseIri,
    // Safe mode: terms JSON-LD would silently drop (invalid IRIs, undefined terms) are errors instead.
    safe: true,
    // No network: a remote @context is refused instead of fetched.
    documentLoader: (url: string) =>
      Promise.reject(new Error(`remote contexts are not loaded (${url.slice(0, 100)})`)),
  } as jsonld.Options.ToRdf)) as unknown as JsonLdQuad[];
  return dataset.map((q) => {
    if (q.graph.termType !== 'DefaultGraph')
      throw RepositoryError.badRequest('Named graphs are not accepted');
    return toN3Quad(q);
  });
}

/**
 * RDF/XML through Oxigraph's parser: rdfxml-streaming-parser was tried and accepts truncated documents
 * silently (no error, no triples), which would store an empty resource instead of answering 400.
 * Oxigraph expands DTD entities, so a DTD is refused before parsing; and its terms are real copies in
 * WebAssembly memory, so they are counted one by one from its iterator (an input given as a list) and
 * the parse stops as soon as they outgrow the body.
 */
function parseRdfXml(body: string, baseIri: string): Quad[] {
  refuseXmlDtd(body);
  const budget = new ParsedSizeBudget(body.length);
  const quads: Quad[] = [];
  for (const q of oxigraph.parse([body], { format: 'application/rdf+xml', base_iri: baseIri })) {
    budget.add(q);
    if (q.graph.termType !== 'DefaultGraph')
      throw RepositoryError.badRequest('Named graphs are not accepted');
    quads.push(toN3Quad(q));
  }
  return quads;
}
