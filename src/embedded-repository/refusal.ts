// What the embedded repository's domain modules (binaries, RDF input, SPARQL Update) refuse, by meaning.
// They know nothing of HTTP: the plugin's error handler (http/refusal-status.ts) picks the status.

export type RefusalKind =
  /** The request is malformed or breaks a rule of the input (400). */
  | 'invalid'
  /** The request contradicts the stored state or what it claims about itself, e.g. a digest (409). */
  | 'conflict'
  /** The body is larger than the configured limit (413). */
  | 'tooLarge'
  /** A well-formed request exceeded a resource limit while running: time, memory, solutions (422). */
  | 'limitExceeded'
  /** Too much work is queued; a retry later may succeed (503 with Retry-After). */
  | 'busy'
  /** The service is shutting down (503). */
  | 'closing';

export class RepositoryRefusal extends Error {
  override readonly name = 'RepositoryRefusal';

  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** The refusal breaks one of the repository's documented constraints (Fedora links them). */
    readonly constrained = false,
  ) {
    super(message);
  }
}
