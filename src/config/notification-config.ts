/**
 * The settings of notifications (DECISIONS.md §15), read beside the rest of config.ts: where e-mail goes
 * (`SCRIPTORIUM_SMTP_URL`, `smtp://` or `smtps://`, and the sender `SCRIPTORIUM_SMTP_FROM`), how often the
 * delivery worker looks for due deliveries, how long one webhook or SMTP exchange may take, and the waits
 * between a failed attempt and the next (after the last, the delivery is FAILED).
 */
export interface NotificationConfig {
  /** Absent: e-mail targets can be created, but their deliveries fail (retried) saying SMTP is not set. */
  readonly smtpUrl: string | undefined;
  readonly smtpFrom: string;
  readonly notificationPollMs: number;
  readonly notificationTimeoutMs: number;
  readonly notificationRetrySeconds: readonly number[];
}

type Integer = (name: string, fallback: number, min: number, max: number) => number;

/** Default waits: 1 min, 5 min, 30 min, 2 h, then the delivery is given up (5 attempts in all). */
const DEFAULT_RETRY_SECONDS = [60, 300, 1_800, 7_200];

export function notificationConfig(
  env: Readonly<Record<string, string | undefined>>,
  integer: Integer,
  problems: string[],
): NotificationConfig {
  const smtpRaw = env.SCRIPTORIUM_SMTP_URL?.trim() ?? '';
  let smtpUrl: string | undefined;
  if (smtpRaw !== '') {
    let parsed: URL | undefined;
    try {
      parsed = new URL(smtpRaw);
    } catch {
      parsed = undefined;
    }
    // Never echo the URL: it may carry the SMTP password.
    if (parsed === undefined || !['smtp:', 'smtps:'].includes(parsed.protocol) || parsed.hostname === '')
      problems.push('SCRIPTORIUM_SMTP_URL must be an smtp:// or smtps:// URL with a host');
    else smtpUrl = smtpRaw;
  }
  const from = env.SCRIPTORIUM_SMTP_FROM?.trim() ?? '';
  if (from !== '' && !/^[^\s@<>]+@[^\s@<>]+$/.test(from))
    problems.push(`SCRIPTORIUM_SMTP_FROM must be an e-mail address, got "${from}"`);
  return {
    smtpUrl,
    smtpFrom: from === '' ? 'scriptorium@localhost' : from,
    notificationPollMs: integer('SCRIPTORIUM_NOTIFICATION_POLL_MS', 5_000, 10, 3_600_000),
    notificationTimeoutMs: integer('SCRIPTORIUM_NOTIFICATION_TIMEOUT_MS', 10_000, 100, 600_000),
    notificationRetrySeconds: retrySeconds(env.SCRIPTORIUM_NOTIFICATION_RETRY_SECONDS, problems),
  };
}

/** `SCRIPTORIUM_NOTIFICATION_RETRY_SECONDS`: comma-separated waits (0–86 400 s each, at most 20). */
function retrySeconds(raw: string | undefined, problems: string[]): readonly number[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SECONDS;
  const parts = raw.split(',').map((part) => part.trim());
  const valid = parts.length <= 20 && parts.every((part) => /^\d{1,5}$/.test(part) && Number(part) <= 86_400);
  if (!valid) {
    problems.push(
      `SCRIPTORIUM_NOTIFICATION_RETRY_SECONDS must be at most 20 comma-separated integers from 0 to 86400, got "${raw}"`,
    );
    return DEFAULT_RETRY_SECONDS;
  }
  return Object.freeze(parts.map(Number));
}
