// Why a SPARQL Update was refused, by meaning. The vetter knows no caller's transport: the embedded
// repository, the adapters and the context API each map a refusal to their own status or envelope.

export type UpdateRefusalReason =
  /** The text is blank. */
  | 'empty'
  /** The text is longer than the policy's limit (detail: the limit). */
  | 'tooLong'
  /** The text is not Unicode (detail: the problem, from shared/unicode.ts). */
  | 'notUnicode'
  /** The text does not parse (detail: the parser's first line). */
  | 'syntax'
  /** The text is a query, not an update. */
  | 'notUpdate'
  /** LOAD, CLEAR, DROP, CREATE, ADD, MOVE or COPY (detail: the keyword). */
  | 'operation'
  /** WITH <graph> (detail: WITH). */
  | 'with'
  /** USING [NAMED] <graph> (detail: USING). */
  | 'using'
  /** A GRAPH block in an INSERT or DELETE template (detail: GRAPH). */
  | 'graphTemplate'
  /** A GRAPH pattern in a WHERE clause, at any depth (detail: GRAPH). */
  | 'graphPattern'
  /** A SERVICE pattern, at any depth (detail: SERVICE). */
  | 'service'
  /** A WHERE clause beyond basic graph patterns (detail: what, e.g. `OPTIONAL`, `property paths`). */
  | 'beyondBgp'
  /** A template writes a server-managed statement (detail: `<predicate>` and, for IRIs, ` <object>`). */
  | 'serverManaged';

/** The one error the SPARQL Update vetter throws; `message` is the caller's wording (its policy's). */
export class SparqlUpdateRefusal extends Error {
  override readonly name = 'SparqlUpdateRefusal';

  constructor(
    readonly reason: UpdateRefusalReason,
    readonly detail: string,
    message: string,
  ) {
    super(message);
  }
}
