import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

/**
 * Shared by the bad-input suites: bodies that are not a JSON object (with one sample object in array
 * form, so an array of an otherwise valid body is tried too), and the check that an answer is a clean
 * refusal — 200 INVALID or 400 ERROR with a message, never a 500.
 */
export function rawBodies(sampleObject: string): [string, string][] {
  return [
    ['malformed JSON', sampleObject.slice(0, -1) + ','],
    ['a JSON array', `[${sampleObject}]`],
    ['a JSON string', '"hello"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['an empty body', ''],
  ];
}

export function expectCleanRefusal(response: { statusCode: number; body: string }): void {
  expect([200, 400]).toContain(response.statusCode);
  const envelope = JSON.parse(response.body) as { meta: { status: string; message: string } };
  expect(envelope.meta.message.length).toBeGreaterThan(0);
  expect(envelope.meta.status).toBe(response.statusCode === 200 ? 'INVALID' : 'ERROR');
}

/** Sends a body exactly as given, with a JSON content type, as the administrator. */
export function sendRaw(t: TestApp, method: 'POST' | 'PUT' | 'DELETE', url: string, raw: string) {
  return t.app.inject({
    method,
    url,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
    payload: raw,
  });
}
