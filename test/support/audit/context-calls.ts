import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import { body, sendJson } from '../test-app.js';
import type { AuditSite } from './context-site.js';

export const DC = 'http://purl.org/dc/elements/1.1/';
export const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A context request as the site's curator; fails the test unless it succeeds. */
export async function asCurator(site: AuditSite, method: Method, path: string, payload?: unknown) {
  const response = await sendJson(site.t.app, method, `${site.prefix}${path}`, payload, {
    token: site.curator.token,
  });
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
  return body(response).payload;
}

/** The events the ledger gained while `work` ran, oldest first. */
export async function recordedDuring(site: AuditSite, work: () => Promise<unknown>): Promise<AuditEvent[]> {
  const before = (await site.ledger.events()).length;
  await work();
  return (await site.ledger.events()).slice(before);
}

/** Creates a child of `parent` with one dc:title, as the curator; answers its IRI (from the ledger). */
export async function newChild(site: AuditSite, parent: string, title: string): Promise<string> {
  const events = await recordedDuring(site, () =>
    asCurator(site, 'POST', `/children?${q(parent)}`, [{ predicate: `${DC}title`, object: `"${title}"` }]),
  );
  const created = events.find((event) => event.action === 'resource.create');
  expect(created, JSON.stringify(events)).toBeDefined();
  return created!.contextUri!;
}

/** Uploads `text` as a file into `container`, as the curator (multipart, as the workbench sends it). */
export async function upload(site: AuditSite, container: string, text: string, filename = 'note.txt') {
  const boundary = 'audit-boundary';
  const response = await site.t.app.inject({
    method: 'POST',
    url: `${site.prefix}/resource?${q(container)}`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${site.curator.token}`,
    },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--${boundary}--\r\n`,
  });
  expect(body(response).meta.status, response.body).toBe('SUCCESS');
}

export const sha512 = (text: string) => `urn:sha-512:${createHash('sha512').update(text).digest('hex')}`;

/** What every event of a write through the site's view says about who and where. */
export function expectByCurator(site: AuditSite, event: AuditEvent | undefined, contextUri: string): void {
  expect(event).toMatchObject({
    username: site.curator.username,
    repositoryViewId: site.viewId,
    contextUri,
    outcome: 'SUCCESS',
    jobId: null,
  });
  expect(event?.requestId).toEqual(expect.any(String));
}
