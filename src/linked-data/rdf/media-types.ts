/**
 * The media-type registry: which RDF syntax each media type names, what each caller reads (its read
 * policy), and what the service writes. parse.ts and serialize.ts are the only code that acts on it.
 */

/** The syntaxes the service reads: N3.js for the Turtle family, Oxigraph for RDF/XML, jsonld for JSON-LD. */
export type RdfFormat = 'turtle' | 'n-triples' | 'n-quads' | 'json-ld' | 'rdf-xml';

const FORMAT_OF: Readonly<Record<string, RdfFormat>> = {
  'text/turtle': 'turtle',
  'application/turtle': 'turtle',
  'application/x-turtle': 'turtle',
  'text/n3': 'turtle',
  'text/rdf+n3': 'turtle',
  'application/n-triples': 'n-triples',
  'text/plain': 'n-triples',
  'application/n-quads': 'n-quads',
  'application/ld+json': 'json-ld',
  'application/json': 'json-ld',
  'application/rdf+xml': 'rdf-xml',
  'application/xml': 'rdf-xml',
  'text/xml': 'rdf-xml',
};

/** Types that also name things other than RDF: read as RDF when a caller expects RDF, never a sign of it. */
const NOT_ONLY_RDF = new Set(['text/plain', 'application/json', 'application/xml', 'text/xml']);

/** What one caller reads, and how strictly. */
export interface RdfReadPolicy {
  /** The media types read; any other is an RdfMediaTypeError. */
  readonly accepts: ReadonlySet<string>;
  /** The syntax assumed when the input has no media type at all; undefined: refused. */
  readonly untyped?: RdfFormat;
  /** Quads outside the default graph: refused (400 in the repository), dropped, or kept. */
  readonly namedGraphs: 'refuse' | 'drop' | 'keep';
  /**
   * Refuse what the parsers let through: IRIs that are not valid, lone surrogates (JSON's "\ud800"),
   * and terms JSON-LD would silently drop (jsonld's safe mode). For input that is stored as it is.
   */
  readonly strict: boolean;
}

/** Request bodies of the embedded repository: stored as they are, so strict and default graph only. */
export const REPOSITORY_BODY: RdfReadPolicy = {
  accepts: new Set([
    'text/turtle',
    'application/x-turtle',
    'text/n3',
    'application/n-triples',
    'application/ld+json',
    'application/rdf+xml',
  ]),
  namedGraphs: 'refuse',
  strict: true,
};

/** Answers of repositories read by the adapters: what Fedora and LDP servers send; untyped is Turtle. */
export const UPSTREAM_ANSWER: RdfReadPolicy = {
  accepts: new Set([
    'text/turtle',
    'application/x-turtle',
    'text/n3',
    'text/rdf+n3',
    'application/n-triples',
    'text/plain',
    'application/n-quads',
    'application/ld+json',
    'application/json',
    'application/rdf+xml',
  ]),
  untyped: 'turtle',
  namedGraphs: 'drop',
  strict: false,
};

/** Vocabulary documents read for `/schema/properties`: whatever a namespace URI answers as RDF. */
export const VOCABULARY_DOCUMENT: RdfReadPolicy = {
  accepts: new Set(Object.keys(FORMAT_OF).filter((type) => type !== 'text/plain' && type !== 'text/rdf+n3')),
  namedGraphs: 'keep',
  strict: false,
};

/** The syntax a caller reads this (bare, lower-case) media type as; undefined when it does not read it. */
export function formatFor(mediaType: string, policy: RdfReadPolicy): RdfFormat | undefined {
  if (mediaType === '') return policy.untyped;
  return policy.accepts.has(mediaType) ? FORMAT_OF[mediaType] : undefined;
}

/** Whether a media type shows the content is RDF the caller reads (`text/plain`, JSON, XML do not). */
export function isRdfMediaType(mediaType: string, policy: RdfReadPolicy): boolean {
  return policy.accepts.has(mediaType) && !NOT_ONLY_RDF.has(mediaType);
}

/** The RDF media types the adapters read, best first; sent as Accept. */
export const RDF_ACCEPT =
  'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5';

/** The RDF media types the service writes, in the order used when the client accepts anything. */
export const RDF_OUTPUT_TYPES = [
  'text/turtle',
  'application/ld+json',
  'application/n-triples',
  'application/rdf+xml',
  'text/plain',
] as const;
export type RdfOutputType = (typeof RDF_OUTPUT_TYPES)[number];

/** The Content-Type header value for an output type. */
export function contentTypeOf(type: RdfOutputType): string {
  return `${type}; charset=utf-8`;
}
