/**
 * The settings of operations (DECISIONS.md §17), read beside the rest of config.ts: the bearer token a
 * Prometheus server sends to `GET /metrics` (`SCRIPTORIUM_METRICS_TOKEN`; unset, only an ADMIN's sign-in
 * token reads the metrics).
 */
export interface OperationsConfig {
  readonly metricsToken: string | undefined;
}

/** A scraper's token is sent on every scrape and guessable over HTTP: demand length, as for passwords. */
const MIN_TOKEN_LENGTH = 24;

export function operationsConfig(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): OperationsConfig {
  const raw = env.SCRIPTORIUM_METRICS_TOKEN ?? '';
  if (raw === '') return { metricsToken: undefined };
  // Never echo it: it is a credential.
  if (!/^[\x21-\x7e]+$/.test(raw) || raw.length < MIN_TOKEN_LENGTH || raw.length > 200) {
    problems.push(
      `SCRIPTORIUM_METRICS_TOKEN must be ${MIN_TOKEN_LENGTH} to 200 printable characters without spaces`,
    );
    return { metricsToken: undefined };
  }
  return { metricsToken: raw };
}
