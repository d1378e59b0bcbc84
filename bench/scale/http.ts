import { SUCCESS_PREFIX } from '../scenarios.js';

/** Plain HTTP for the scale bench: the measured requests and the seeding ones. */

export interface Call {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Sends `call` and returns the body as text. The client never parses a measured answer (a 100 000-child
 * context is tens of MiB of JSON; parsing it here would be counted as the service's latency): a service
 * answer must start like a SUCCESS envelope, and only the first answer of a size is checked in detail.
 */
export async function send(call: Call, signal: AbortSignal, envelope: boolean): Promise<string> {
  const response = await fetch(call.url, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    signal,
  });
  const text = await response.text();
  if (!response.ok || (envelope && !text.startsWith(SUCCESS_PREFIX))) {
    throw new Error(
      `${call.method} ${new URL(call.url).pathname} → ${response.status} ${text.slice(0, 300)}`,
    );
  }
  return text;
}

/** Sends `call` to the embedded repository and returns the Location of what it created. */
export async function created(call: Call): Promise<string> {
  const response = await fetch(call.url, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    signal: AbortSignal.timeout(60_000),
  });
  await response.arrayBuffer();
  const location = response.headers.get('location');
  if (response.status !== 201 || location === null) {
    throw new Error(`${call.method} ${call.url} → ${response.status}, expected 201 with a Location`);
  }
  return location;
}
