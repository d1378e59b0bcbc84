/** What the API said when a request failed: the HTTP status, the envelope's status and message. */
export class ApiError extends Error {
  constructor(
    /** The HTTP status (200 for an INVALID or ERROR envelope). */
    readonly status: number,
    /** The envelope's status: INVALID, ERROR, UNAUTHORIZED, REFRESH; or NETWORK when nothing answered. */
    readonly kind: string,
    message: string,
    /** INVALID: the ValidationResults messages, category → field or operation → text. */
    readonly fieldMessages: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The session is gone (expired, revoked, signed out elsewhere). */
  get isUnauthenticated(): boolean {
    return this.status === 401;
  }

  get isForbidden(): boolean {
    return this.status === 403;
  }

  /**
   * One message per property (or `business`): ValidationResults name the property as the category
   * (`{ name: { minlength: "…" } }`, DECISIONS.md §3); the first message of each is the one shown.
   */
  get fields(): Record<string, string> {
    const byField: Record<string, string> = {};
    for (const [category, messages] of Object.entries(this.fieldMessages)) {
      const first = Object.values(messages)[0];
      if (first !== undefined) byField[category] = first;
    }
    return byField;
  }
}

interface EnvelopeLike {
  meta?: { status?: string; message?: string };
  payload?: Record<string, unknown>;
}

/** Turns a non-SUCCESS envelope (or a body that is none) into an ApiError. */
export function apiErrorOf(status: number, body: unknown, requestId: string | null): ApiError {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as EnvelopeLike;
  const kind = envelope.meta?.status ?? 'ERROR';
  const message = envelope.meta?.message ?? `The service answered HTTP ${status}`;
  const results = envelope.payload?.ValidationResults as
    { messages?: Record<string, Record<string, string>> } | undefined;
  return new ApiError(status, kind, message, results?.messages ?? {}, requestId);
}
