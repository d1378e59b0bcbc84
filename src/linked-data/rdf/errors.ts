/**
 * Why an RDF input could not be read. Domain errors: each caller maps them to its own answer (the
 * embedded repository to 400/415, the adapters to an upstream failure, the schema reader to a failed
 * lookup), so the reading code stays free of HTTP.
 */

/** The input is not well-formed in its syntax; `message` is the parser's own. */
export class RdfSyntaxError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RdfSyntaxError';
  }
}

/**
 * The input parses but is refused by a safety rule or by the caller's policy: a DTD, output far larger
 * than the input, a remote JSON-LD context, a named graph, an invalid IRI, a lone surrogate.
 */
export class RdfInputRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RdfInputRefusedError';
  }
}

/** The media type is not one the caller reads as RDF. */
export class RdfMediaTypeError extends Error {
  constructor(readonly mediaType: string) {
    super(`the media type ${mediaType} is not RDF`);
    this.name = 'RdfMediaTypeError';
  }
}
