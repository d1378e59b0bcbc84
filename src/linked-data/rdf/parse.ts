import N3 from 'n3';
import { hasLoneSurrogate, LONE_SURROGATE_PROBLEM } from '../../shared/unicode.js';
import { RdfInputRefusedError, RdfMediaTypeError, RdfSyntaxError } from './errors.js';
import { checkParsedSize } from './input-guard.js';
import { readJsonLd } from './json-ld.js';
import { formatFor, type RdfFormat, type RdfReadPolicy } from './media-types.js';
import { readRdfXml } from './rdf-xml.js';
import { isValidIri } from './terms.js';

/** N3.js's names for the syntaxes it reads. */
const N3_FORMAT = { turtle: 'Turtle', 'n-triples': 'N-Triples', 'n-quads': 'N-Quads' } as const;

/**
 * Reads an RDF document held in memory, the one way for every caller: relative IRIs resolve against
 * `baseIri` (so `<>` is the resource), the safety rules of input-guard.ts apply to every syntax, and
 * the caller's policy decides the media types read, named graphs and strictness. Throws RdfMediaTypeError,
 * RdfSyntaxError or RdfInputRefusedError, never an HTTP error: the caller decides the answer.
 */
export async function parseRdf(
  text: string,
  mediaType: string,
  policy: RdfReadPolicy,
  baseIri: string,
): Promise<N3.Quad[]> {
  const format = formatFor(mediaType, policy);
  if (format === undefined) throw new RdfMediaTypeError(mediaType);
  let quads: N3.Quad[];
  try {
    quads = await read(format, text, baseIri, policy.strict);
  } catch (error) {
    if (error instanceof RdfInputRefusedError) throw error;
    throw new RdfSyntaxError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  if (policy.namedGraphs === 'drop') quads = quads.filter((q) => q.graph.termType === 'DefaultGraph');
  for (const q of quads) check(q, policy);
  return quads;
}

function read(
  format: RdfFormat,
  text: string,
  baseIri: string,
  strict: boolean,
): Promise<N3.Quad[]> | N3.Quad[] {
  switch (format) {
    // N3 and jsonld answer arrays whose long IRIs share strings (prefix + local name is a lazy
    // concatenation), so counting afterwards is cheap and still before anything is used.
    case 'turtle':
    case 'n-triples':
    case 'n-quads':
      return checkParsedSize(
        new N3.Parser({ baseIRI: baseIri, format: N3_FORMAT[format] }).parse(text),
        text,
      );
    case 'json-ld':
      return readJsonLd(text, baseIri, strict).then((quads) => checkParsedSize(quads, text));
    case 'rdf-xml':
      return readRdfXml(text, baseIri);
  }
}

/** The policy's rules for one quad: its graph, then (strict) its IRIs and its Unicode. */
function check(q: N3.Quad, policy: RdfReadPolicy): void {
  if (policy.namedGraphs === 'refuse' && q.graph.termType !== 'DefaultGraph') {
    throw new RdfInputRefusedError('Named graphs are not accepted');
  }
  if (!policy.strict) return;
  for (const term of [q.subject, q.predicate, q.object]) {
    if (term.termType === 'NamedNode' && !isValidIri(term.value)) {
      throw new RdfInputRefusedError(`Invalid IRI <${term.value.slice(0, 200)}>`);
    }
    // JSON's "\ud800" decodes to a lone surrogate (the RDF syntaxes' parsers refuse theirs).
    const datatype = term.termType === 'Literal' ? term.datatype.value : '';
    if (hasLoneSurrogate(term.value) || hasLoneSurrogate(datatype)) {
      throw new RdfInputRefusedError(`Not valid Unicode: ${LONE_SURROGATE_PROBLEM}`);
    }
  }
}
