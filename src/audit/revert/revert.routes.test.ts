import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCurator, DC, newChild, q, recordedDuring } from '../../../test/support/audit/context-calls.js';
import {
  embeddedAuditSite,
  externalFedoraSite,
  type AuditSite,
} from '../../../test/support/audit/context-site.js';
import { body, sendJson } from '../../../test/support/test-app.js';
import type { AuditEvent } from '../audit-event.js';
import { CHANGED_SINCE, NOT_REVERTIBLE } from './revert.service.js';

const line = (s: string, p: string, o: string) => `<${s}> <${p}> ${o} .`;

/** "Revert this change" (issue 30, DECISIONS.md §14): POST /audit/:id/revert. */
describe.each([
  ['the embedded repository', embeddedAuditSite],
  ['an external Fedora', externalFedoraSite],
])('reverting a metadata change made through a view on %s', (_name, build) => {
  let site: AuditSite;
  beforeAll(async () => {
    site = await build();
  }, 120_000);
  afterAll(async () => {
    await site.close();
  });

  const revert = (id: number, token = site.curator.token) =>
    sendJson(site.t.app, 'POST', `/audit/${id}/revert`, undefined, { token });
  const titles = async (uri: string) =>
    (
      (await asCurator(site, 'GET', `/metadata?${q(uri)}`))['ArrayList<Triple>'] as {
        predicate: string;
        object: string;
      }[]
    )
      .filter((triple) => triple.predicate === `${DC}title`)
      .map((triple) => triple.object);

  async function retitle(uri: string, from: string, to: string): Promise<AuditEvent> {
    const [event] = await recordedDuring(site, () =>
      asCurator(site, 'PUT', `/metadata?${q(uri)}&value=${encodeURIComponent(to)}`, {
        subject: uri,
        predicate: `${DC}title`,
        object: from,
      }),
    );
    expect(event?.action).toBe('metadata.update');
    return event!;
  }

  it('writes the inverse as a new, recorded change and answers it', async () => {
    const child = await newChild(site, site.rootUri, 'Original');
    const change = await retitle(child, '"Original"', '"Mistake"');
    const response = await revert(change.id);
    expect(response.statusCode).toBe(200);
    const envelope = body(response);
    expect(envelope.meta.status, response.body).toBe('SUCCESS');
    const event = envelope.payload.AuditEvent as AuditEvent;
    expect(event).toMatchObject({
      action: 'metadata.revert',
      username: site.curator.username,
      repositoryViewId: site.viewId,
      contextUri: child,
      detail: {
        removed: [line(child, `${DC}title`, '"Mistake"')],
        added: [line(child, `${DC}title`, '"Original"')],
        revertOf: change.id,
      },
    });
    expect(await titles(child)).toEqual(['"Original"']);
    const stored = (await site.ledger.events()).filter((e) => e.action === 'metadata.revert');
    expect(stored.map((e) => e.id)).toEqual([event.id]);
    expect(stored[0]!.hash).toBe(event.hash);
  });

  it('refuses when the resource changed since, and writes nothing', async () => {
    const child = await newChild(site, site.rootUri, 'One');
    const change = await retitle(child, '"One"', '"Two"');
    await retitle(child, '"Two"', '"Three"');
    const during = await recordedDuring(site, async () => {
      const response = await revert(change.id);
      expect(response.statusCode).toBe(200);
      expect(body(response)).toMatchObject({
        meta: { status: 'INVALID' },
        payload: { ValidationResults: { valid: false, messages: { business: { UPDATE: CHANGED_SINCE } } } },
      });
    });
    expect(during).toEqual([]);
    expect(await titles(child)).toEqual(['"Three"']);
  });

  it('refuses what is not a metadata change (INVALID), a curator of another view (403), an unknown id (404)', async () => {
    const [created] = await recordedDuring(site, () => newChild(site, site.rootUri, 'Made'));
    const notMetadata = await revert(created!.id);
    expect(body(notMetadata)).toMatchObject({
      meta: { status: 'INVALID' },
      payload: { ValidationResults: { messages: { business: { UPDATE: NOT_REVERTIBLE } } } },
    });

    const change = await retitle(created!.contextUri!, '"Made"', '"Changed"');
    const stranger = await revert(change.id, site.stranger.token);
    expect(stranger.statusCode).toBe(403);
    expect(body(stranger).meta.status).toBe('UNAUTHORIZED');
    expect(await titles(created!.contextUri!)).toEqual(['"Changed"']);

    const unknown = await revert(999_999);
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).meta.status).toBe('ERROR');
  });
});
