/** What one try at sending a notice came to; `error` says why it failed, in a sentence. */
export interface SendOutcome {
  readonly delivered: boolean;
  /** WEBHOOK: the HTTP status answered; null when none was. */
  readonly status: number | null;
  /** EMAIL: the SMTP server's answer. */
  readonly response: string | null;
  readonly error: string | null;
}

export function failed(
  error: string,
  status: number | null = null,
  response: string | null = null,
): SendOutcome {
  return { delivered: false, status, response, error };
}
