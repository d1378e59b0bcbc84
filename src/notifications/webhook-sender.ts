import { createHmac } from 'node:crypto';
import { failed, type SendOutcome } from './send-outcome.js';

/** The most of a receiver's answer read (and then dropped): it only has to say 2xx. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export const SIGNATURE_HEADER = 'X-Scriptorium-Signature';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes>` with the target's secret (DECISIONS.md §15). */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * POSTs a notice to a webhook: 2xx is delivered; any other status, a redirect (never followed: the target
 * must name its own address), a timeout or a connection error is a failure the worker retries. The whole
 * exchange, the answer's body included, is bounded by `timeoutMs`, and at most 64 KiB of it are read.
 */
export async function sendWebhook(
  url: string,
  secret: string,
  body: string,
  timeoutMs: number,
): Promise<SendOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Scriptorium notifications',
        [SIGNATURE_HEADER]: signatureOf(body, secret),
      },
      body,
    });
  } catch (error) {
    return failed(describe(error, timeoutMs));
  }
  try {
    await drain(response);
  } catch (error) {
    return failed(describe(error, timeoutMs), response.status);
  }
  if (response.status >= 200 && response.status < 300)
    return { delivered: true, status: response.status, response: null, error: null };
  if (response.status >= 300 && response.status < 400)
    return failed(
      `The webhook answered a redirect (HTTP ${response.status}), which is not followed`,
      response.status,
    );
  return failed(`The webhook answered HTTP ${response.status}`, response.status);
}

/** Reads the answer up to the cap so the connection can be reused, then stops. */
async function drain(response: Response): Promise<void> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    read += value.byteLength;
    if (read > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      return;
    }
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `The webhook did not answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return `The webhook could not be reached: ${cause ?? message}`;
}
