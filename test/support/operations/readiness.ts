import { body, type TestApp } from '../test-app.js';

export interface Readiness {
  checks: { name: string; ok: boolean }[];
  binaryStore: string | null;
}

/** GET /health/ready, read apart. */
export async function ready(t: TestApp) {
  const response = await t.app.inject({ method: 'GET', url: '/health/ready' });
  const envelope = body(response);
  return {
    status: response.statusCode,
    message: envelope.meta.message,
    envelopeStatus: envelope.meta.status,
    readiness: envelope.payload.Readiness as Readiness,
    raw: response.body,
  };
}

/** Polls `probe` until `done` (at most 10 s). */
export async function until<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}
