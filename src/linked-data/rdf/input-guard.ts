import { RdfInputRefusedError } from './errors.js';

/**
 * Guards applied by the one RDF reader (parse.ts) to every input from outside (the embedded repository's
 * request bodies, the adapters' upstream answers, vocabulary documents): a parser must never turn a small
 * input into a huge output. Refusals are RdfInputRefusedError; each caller maps it to its own answer.
 */

/**
 * `<!DOCTYPE` or `<!ENTITY` anywhere, in any case, with or without blanks after `<!`. Anywhere, not only
 * in the prolog: Oxigraph honours a DOCTYPE met inside the root element, and lenient XML readers accept
 * `<!doctype`. A DOCTYPE is how entities are declared (internal subset, parameter entities) or pulled in
 * (SYSTEM/PUBLIC external subset), and RDF/XML needs none of that.
 */
const DTD_DECLARATION = /<!\s*(?:DOCTYPE|ENTITY)/i;

/**
 * Refuses RDF/XML that declares a DTD: nested entities expand exponentially (a 656-byte "billion laughs"
 * document became a 100 MB literal) and external ones are a fetch chosen by the document. NUL characters
 * are ignored while looking, so a UTF-16 document read as UTF-8 (`<\0!\0D\0…`) is caught as well.
 */
export function refuseXmlDtd(text: string): void {
  if (DTD_DECLARATION.test(text.includes('\0') ? text.replaceAll('\0', '') : text)) {
    throw new RdfInputRefusedError(
      'RDF/XML with a DOCTYPE or ENTITY declaration is refused: XML entities are not expanded',
    );
  }
}

/** The part of an RDF/JS term whose size counts; a triple term (RDF 1.2) counts its parts. */
interface SizedTerm {
  readonly termType: string;
  readonly value: string;
  readonly language?: string;
  readonly datatype?: { readonly value: string };
  readonly subject?: SizedTerm;
  readonly predicate?: SizedTerm;
  readonly object?: SizedTerm;
}
export interface SizedQuad {
  readonly subject: SizedTerm;
  readonly predicate: SizedTerm;
  readonly object: SizedTerm;
  readonly graph?: SizedTerm;
}

/**
 * Every input gets this many characters of parsed terms for free, so a small document about a resource
 * with a long address is never refused; beyond it, terms may total FACTOR times the input. Ordinary RDF
 * stays well below (each term is written out, or abbreviated by a prefix a few times shorter); prefixes,
 * `@base`, JSON-LD contexts and XML namespaces re-used thousands of times go far above.
 */
export const PARSED_OUTPUT_FLOOR = 1024 * 1024;
export const PARSED_OUTPUT_FACTOR = 16;

function termSize(term: SizedTerm | undefined): number {
  if (term === undefined) return 0;
  if (term.termType === 'Quad') {
    return termSize(term.subject) + termSize(term.predicate) + termSize(term.object);
  }
  return term.value.length + (term.language?.length ?? 0) + (term.datatype?.value.length ?? 0);
}

/**
 * Counts the characters of the terms a parser yields and refuses once they exceed the bound for an
 * input of this length. `add` is cheap (string lengths only), so streaming parsers call it per quad and
 * stop early; parsers that answer a whole array are checked with `checkParsedSize`.
 */
export class ParsedSizeBudget {
  readonly limit: number;
  private used = 0;

  constructor(private readonly inputLength: number) {
    this.limit = PARSED_OUTPUT_FLOOR + PARSED_OUTPUT_FACTOR * inputLength;
  }

  add(quad: SizedQuad): void {
    this.used +=
      termSize(quad.subject) + termSize(quad.predicate) + termSize(quad.object) + termSize(quad.graph);
    if (this.used > this.limit) {
      throw new RdfInputRefusedError(
        `the parsed RDF is too large: its terms exceed ${this.limit} characters for ${this.inputLength} characters of input`,
      );
    }
  }
}

/** Answers `quads` unchanged when their terms fit the bound for `input`; refuses them otherwise. */
export function checkParsedSize<T extends SizedQuad>(quads: T[], input: string): T[] {
  const budget = new ParsedSizeBudget(input.length);
  for (const quad of quads) budget.add(quad);
  return quads;
}
