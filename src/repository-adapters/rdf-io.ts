import { Readable } from 'node:stream';
import type { Quad, Term } from '@rdfjs/types';
import jsonld from 'jsonld';
import N3 from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { checkParsedSize, ParsedSizeBudget, refuseXmlDtd } from '../shared/rdf-input-guard.js';

const factory = N3.DataFactory;
const namedNode = (value: string) => factory.namedNode(value);
const blankNode = (value?: string) => factory.blankNode(value);
const literal = (value: string, languageOrDatatype?: string | Parameters<typeof factory.literal>[1]) =>
  factory.literal(value, languageOrDatatype);
const defaultGraph = () => factory.defaultGraph();
const quad = (
  subject: Quad['subject'],
  predicate: Quad['predicate'],
  object: Quad['object'],
  graph?: Quad['graph'],
): Quad => factory.quad(subject, predicate, object, graph);

export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  ldp: 'http://www.w3.org/ns/ldp#',
  fedora: 'http://fedora.info/definitions/v4/repository#',
  fcrepo: 'http://fedora.info/definitions/fcrepo#',
  memento: 'http://mementoweb.org/ns#',
  premis: 'http://www.loc.gov/premis/rdf/v1#',
  premis3: 'http://www.loc.gov/premis/rdf/v3/',
  ebucore: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#',
  iana: 'http://www.iana.org/assignments/relation/',
} as const;

export const RDF_TYPE = `${NS.rdf}type`;
export const LDP_CONTAINS = `${NS.ldp}contains`;
export const LDP_CONTAINER = `${NS.ldp}Container`;
export const LDP_BASIC_CONTAINER = `${NS.ldp}BasicContainer`;
export const LDP_NON_RDF_SOURCE = `${NS.ldp}NonRDFSource`;
export const LDP_PREFER_CONTAINMENT = `${NS.ldp}PreferContainment`;
export const FEDORA_REPOSITORY_ROOT = `${NS.fedora}RepositoryRoot`;
export const FEDORA_HAS_PARENT = `${NS.fedora}hasParent`;
export const FEDORA_HAS_VERSION_LABEL = `${NS.fedora}hasVersionLabel`;
export const FEDORA_CREATED = `${NS.fedora}created`;
export const FCREPO_SERVER_MANAGED = `${NS.fcrepo}ServerManaged`;
export const MEMENTO_DATETIME = `${NS.memento}mementoDatetime`;
export const EBUCORE_FILENAME = `${NS.ebucore}filename`;
export const EBUCORE_MIME_TYPE = `${NS.ebucore}hasMimeType`;

/** The RDF media types the adapters read, best first; sent as Accept. */
export const RDF_ACCEPT =
  'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5';

const PARSERS: Readonly<Record<string, 'turtle' | 'ntriples' | 'nquads' | 'jsonld' | 'rdfxml'>> = {
  'text/turtle': 'turtle',
  'application/x-turtle': 'turtle',
  'text/n3': 'turtle',
  'text/rdf+n3': 'turtle',
  'application/n-triples': 'ntriples',
  'text/plain': 'ntriples',
  'application/n-quads': 'nquads',
  'application/ld+json': 'jsonld',
  'application/json': 'jsonld',
  'application/rdf+xml': 'rdfxml',
};

/** The bare media type of a Content-Type value, lower-cased. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether the adapters can read this media type as RDF (`text/plain` is not counted). */
export function isRdfMediaType(contentType: string | undefined): boolean {
  const type = mediaTypeOf(contentType);
  return type !== 'text/plain' && type !== 'application/json' && type in PARSERS;
}

/**
 * Parses an RDF body into quads of the default graph, resolving relative IRIs against `baseIri`. No
 * network access (remote JSON-LD contexts are refused), no RDF/XML DTD, no output far larger than the
 * body (rdf-input-guard). Throws a plain Error on syntax errors and refusals; the caller turns it into
 * an upstream failure naming the request.
 */
export async function parseRdf(
  body: string,
  contentType: string | undefined,
  baseIri: string,
): Promise<Quad[]> {
  const type = mediaTypeOf(contentType);
  const kind = PARSERS[type] ?? (type === '' ? 'turtle' : undefined);
  let quads: Quad[];
  switch (kind) {
    // Whole arrays whose long IRIs share strings: counted afterwards, cheaply (rdf-input-guard).
    case 'turtle':
      quads = checkParsedSize(new N3.Parser({ baseIRI: baseIri, format: 'text/turtle' }).parse(body), body);
      break;
    case 'ntriples':
      quads = checkParsedSize(new N3.Parser({ baseIRI: baseIri, format: 'N-Triples' }).parse(body), body);
      break;
    case 'nquads':
      quads = checkParsedSize(new N3.Parser({ baseIRI: baseIri, format: 'N-Quads' }).parse(body), body);
      break;
    case 'jsonld':
      quads = checkParsedSize(await parseJsonLd(body, baseIri), body);
      break;
    case 'rdfxml':
      quads = await parseRdfXml(body, baseIri);
      break;
    case undefined:
      throw new Error(`the media type ${type} is not RDF`);
  }
  return quads.filter((q) => q.graph.termType === 'DefaultGraph');
}

interface PlainTerm {
  termType: string;
  value: string;
  datatype?: { value: string };
  language?: string;
}
interface PlainQuad {
  subject: PlainTerm;
  predicate: PlainTerm;
  object: PlainTerm;
  graph: PlainTerm;
}

function toTerm(term: PlainTerm): Term {
  switch (term.termType) {
    case 'NamedNode':
      return namedNode(term.value);
    case 'BlankNode':
      return blankNode(term.value.replace(/^_:/, ''));
    case 'Literal':
      if (term.language !== undefined && term.language !== '') return literal(term.value, term.language);
      return literal(term.value, term.datatype === undefined ? undefined : namedNode(term.datatype.value));
    default:
      return defaultGraph();
  }
}

function toQuad(q: PlainQuad): Quad {
  return quad(
    toTerm(q.subject) as Quad['subject'],
    toTerm(q.predicate) as Quad['predicate'],
    toTerm(q.object) as Quad['object'],
    q.graph.termType === 'DefaultGraph' ? defaultGraph() : (toTerm(q.graph) as Quad['graph']),
  );
}

async function parseJsonLd(body: string, baseIri: string): Promise<Quad[]> {
  const document = JSON.parse(body) as jsonld.JsonLdDocument;
  const dataset = (await jsonld.toRDF(document, {
    base: baseIri,
    documentLoader: (url: string) =>
      Promise.reject(new Error(`remote JSON-LD contexts are not loaded (${url.slice(0, 100)})`)),
  } as jsonld.Options.ToRdf)) as unknown as PlainQuad[];
  return dataset.map(toQuad);
}

/** A DTD is refused before parsing; terms are counted as they come and the parse stops when too large. */
function parseRdfXml(body: string, baseIri: string): Promise<Quad[]> {
  refuseXmlDtd(body);
  return new Promise((resolve, reject) => {
    const parser = new RdfXmlParser({ baseIRI: baseIri });
    const budget = new ParsedSizeBudget(body.length);
    const quads: Quad[] = [];
    parser.on('data', (q: PlainQuad) => {
      try {
        budget.add(q);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        parser.destroy();
        return;
      }
      quads.push(toQuad(q));
    });
    parser.on('error', reject);
    parser.on('end', () => {
      resolve(quads);
    });
    Readable.from([body]).pipe(parser);
  });
}

/** Writes quads as Turtle. Subjects that are the empty IRI are written `<>` (the resource being created). */
export function writeTurtle(quads: readonly Quad[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const writer = new N3.Writer({ format: 'text/turtle' });
    writer.addQuads(quads.map((q) => quad(q.subject, q.predicate, q.object, defaultGraph())));
    writer.end((error: Error | null, result: string) => {
      if (error !== null) reject(error);
      else resolve(result);
    });
  });
}

export { namedNode, literal, blankNode, quad, defaultGraph };
