/**
 * An HTTP answer of the embedded repository that is not a success. Unlike the API's domain errors these
 * carry their status directly: the repository speaks LDP, not envelopes.
 */
export class RepositoryError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: {
      /** Adds Link rel="http://www.w3.org/ns/ldp#constrainedBy" (Fedora: every rule violation). */
      readonly constrained?: boolean;
      readonly headers?: Readonly<Record<string, string>>;
    } = {},
  ) {
    super(message);
    this.name = 'RepositoryError';
  }

  static badRequest(message: string, constrained = false): RepositoryError {
    return new RepositoryError(400, message, { constrained });
  }
  static notFound(message = 'Not Found'): RepositoryError {
    return new RepositoryError(404, message);
  }
  static conflict(message: string, constrained = true): RepositoryError {
    return new RepositoryError(409, message, { constrained });
  }
  static notAllowed(message: string, allow: string): RepositoryError {
    return new RepositoryError(405, message, { headers: { allow } });
  }
  static preconditionFailed(
    message = 'The resource has changed (If-Match / If-None-Match failed)',
  ): RepositoryError {
    return new RepositoryError(412, message);
  }
  static unsupportedMediaType(message: string): RepositoryError {
    return new RepositoryError(415, message, { constrained: true });
  }
}
