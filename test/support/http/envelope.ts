import { expect } from 'vitest';
import type { EmbeddedView } from '../embedded-view.js';
import { sendJson, type TestApp } from '../test-app.js';
import { SECURITY_HEADERS } from '../../../src/http/security-headers.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export interface Call {
  method: Method;
  url: string;
  payload?: unknown;
  /** A body sent as is, with this content type (forms, multipart). */
  raw?: { contentType: string; body: string };
  /** Defaults to the administrator's token; null sends none. */
  token?: string | null;
}
export interface RouteCases {
  /** Prepares rows and returns a request that must succeed. */
  success: (t: TestApp) => Promise<Call>;
  /** A request that must fail, with its expected HTTP and envelope status; null when the route takes no input. */
  failure: { call: Call; http: number; status: string } | null;
  /** The success answer is not an envelope (a binary download); its headers are still checked. */
  rawSuccess?: true;
}

/**
 * The embedded view of the test that runs now. The route walk sets it up in each `beforeEach`; a case
 * reads it only when it runs, so the tables can be built once at collection time.
 */
export interface CurrentView {
  readonly v: EmbeddedView;
}

/**
 * Documentation routes answer documents, not envelopes; they still carry the security headers. The
 * embedded repository under /rest is skipped too: it answers LDP (Fedora) responses, not envelopes
 * (DECISIONS.md §2), and has its own conformance suite in src/embedded-repository/. So is the event
 * stream (`GET /events`), which never ends: src/events/events.routes.test.ts checks its envelopes.
 */
export const isDocumentation = (url: string) =>
  // The workbench's static files and its redirects (tested in src/workbench/workbench.routes.test.ts).
  url === '/' ||
  url === '/ui' ||
  url.startsWith('/ui/') ||
  url === '/openapi.json' ||
  url.startsWith('/docs') ||
  url === '/rest' ||
  url.startsWith('/rest/') ||
  url === '/events';

export function expectHeaders(headers: Record<string, unknown>) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
}

export function expectEnvelope(raw: string, status: string) {
  expect(raw.startsWith('{"meta":{"status":')).toBe(true);
  const parsed = JSON.parse(raw) as { meta: Record<string, unknown>; payload: unknown };
  expect(Object.keys(parsed)).toEqual(['meta', 'payload']);
  expect(Object.keys(parsed.meta)).toEqual(['status', 'action', 'message', 'id']);
  expect(parsed.meta.status).toBe(status);
  expect(parsed.meta.action).toBeNull();
  expect(parsed.meta.id).toBeNull();
  expect(typeof parsed.meta.message).toBe('string');
  expect(typeof parsed.payload).toBe('object');
}

export async function sendOverHttp(t: TestApp, v: EmbeddedView, call: Call) {
  const response = await fetch(`${v.rootUri.replace(/\/rest\/$/, '')}${call.url}`, {
    method: call.method,
    headers: { authorization: `Bearer ${t.adminToken}` },
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { statusCode: response.status, headers, body: await response.text() };
}

export async function send(t: TestApp, call: Call) {
  if (call.raw !== undefined) {
    return t.app.inject({
      method: call.method,
      url: call.url,
      headers: { 'content-type': call.raw.contentType, authorization: `Bearer ${t.adminToken}` },
      payload: call.raw.body,
    });
  }
  if (typeof call.payload === 'string' || (call.method === 'GET' && call.payload !== undefined)) {
    const raw = typeof call.payload === 'string' ? call.payload : JSON.stringify(call.payload);
    return t.app.inject({
      method: call.method,
      url: call.url,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
      payload: raw,
    });
  }
  return sendJson(
    t.app,
    call.method,
    call.url,
    call.payload,
    call.token === undefined ? {} : { token: call.token },
  );
}
