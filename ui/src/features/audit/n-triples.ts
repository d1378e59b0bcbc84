/**
 * A line of an audit event's `removed`/`added` lists (`<s> <p> <o> .`, N-Triples, as the ledger writes the
 * triples) split into the terms the browser shows: subject and predicate as bare IRIs (or `_:b` blank
 * nodes), the object as the API writes objects elsewhere (a bare IRI, a literal in N-Triples form), so the
 * Metadata section's formatting shows it the same way.
 */
export interface LedgerTriple {
  readonly subject: string;
  readonly predicate: string;
  /** A bare IRI, a blank node `_:b`, or a literal `"x"`, `"x"@fr`, `"5"^^<…>`. */
  readonly object: string;
}

const IRI = String.raw`<([^>]*)>`;
const BLANK = String.raw`(_:\S+)`;
const LITERAL = String.raw`("(?:[^"\\]|\\.)*"(?:@[A-Za-z0-9-]+|\^\^<[^>]*>)?)`;
const LINE = new RegExp(
  String.raw`^\s*(?:${IRI}|${BLANK})\s+${IRI}\s+(?:${IRI}|${BLANK}|${LITERAL})\s*\.?\s*$`,
  's',
);

/** The terms of one N-Triples line, or undefined when it is not one (it is then shown as written). */
export function parseLedgerTriple(line: string): LedgerTriple | undefined {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  const [, subjectIri, subjectBlank, predicate, objectIri, objectBlank, literal] = match;
  const subject = subjectIri ?? subjectBlank;
  const object = objectIri ?? objectBlank ?? literal;
  if (subject === undefined || predicate === undefined || object === undefined) return undefined;
  return { subject, predicate, object };
}
