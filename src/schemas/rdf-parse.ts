import { JsonLdParser } from 'jsonld-streaming-parser';
import { Parser as N3Parser } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { checkParsedSize, ParsedSizeBudget, refuseXmlDtd } from '../shared/rdf-input-guard.js';

/** The part of an RDF/JS term the property listing reads; every parser here produces it. */
export interface Term {
  readonly termType: string;
  readonly value: string;
  readonly language?: string;
}

export interface Triple {
  readonly subject: Term;
  readonly predicate: Term;
  readonly object: Term;
}

export type RdfSyntax = 'turtle' | 'n-triples' | 'n-quads' | 'rdf-xml' | 'json-ld';

const SYNTAX_BY_MEDIA_TYPE: Readonly<Record<string, RdfSyntax>> = {
  'text/turtle': 'turtle',
  'application/turtle': 'turtle',
  'application/x-turtle': 'turtle',
  'text/n3': 'turtle',
  'application/n-triples': 'n-triples',
  'application/n-quads': 'n-quads',
  'application/rdf+xml': 'rdf-xml',
  'application/xml': 'rdf-xml',
  'text/xml': 'rdf-xml',
  'application/ld+json': 'json-ld',
  'application/json': 'json-ld',
};

/** The media type of a Content-Type header, lower case and without parameters. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The syntax for a Content-Type header, or undefined when it is not an RDF syntax read here. */
export function syntaxOf(contentType: string | undefined): RdfSyntax | undefined {
  return SYNTAX_BY_MEDIA_TYPE[mediaTypeOf(contentType)];
}

export class RdfParseError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RdfParseError';
  }
}

/**
 * Parses a whole RDF document held in memory. Relative IRIs resolve against `baseIRI`. JSON-LD remote
 * contexts are refused: loading them would be a second, unchecked fetch chosen by the document. RDF/XML
 * declaring a DTD and output far larger than the document are refused too (rdf-input-guard).
 */
export async function parseRdf(text: string, syntax: RdfSyntax, baseIRI: string): Promise<Triple[]> {
  try {
    switch (syntax) {
      // N3 answers arrays whose long IRIs share strings: counted afterwards, cheaply.
      case 'turtle':
        return checkParsedSize(new N3Parser({ baseIRI, format: 'Turtle' }).parse(text), text);
      case 'n-triples':
        return checkParsedSize(new N3Parser({ baseIRI, format: 'N-Triples' }).parse(text), text);
      case 'n-quads':
        return checkParsedSize(new N3Parser({ baseIRI, format: 'N-Quads' }).parse(text), text);
      case 'rdf-xml':
        refuseXmlDtd(text);
        return await collect(new RdfXmlParser({ baseIRI }), text);
      case 'json-ld':
        return await collect(
          new JsonLdParser({
            baseIRI,
            documentLoader: {
              load: (url: string) => Promise.reject(new Error(`remote JSON-LD context ${url} is not loaded`)),
            },
          }),
          text,
        );
    }
  } catch (error) {
    throw new RdfParseError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

interface TripleStream {
  on(event: 'data', listener: (triple: Triple) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  write(chunk: string): unknown;
  end(): unknown;
  destroy(): unknown;
}

/** Collects a streaming parser's triples, counting their terms and stopping once they are too large. */
function collect(parser: TripleStream, text: string): Promise<Triple[]> {
  return new Promise((resolve, reject) => {
    const budget = new ParsedSizeBudget(text.length);
    const triples: Triple[] = [];
    parser.on('data', (triple) => {
      try {
        budget.add(triple);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        parser.destroy();
        return;
      }
      triples.push(triple);
    });
    parser.on('error', reject);
    parser.on('end', () => {
      resolve(triples);
    });
    parser.write(text);
    parser.end();
  });
}
