import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  asCurator,
  DC,
  expectByCurator,
  newChild,
  q,
  recordedDuring,
  sha512,
  upload,
} from '../../test/support/audit/context-calls.js';
import { solidAuditSite, type AuditSite } from '../../test/support/audit/context-site.js';
import { body, sendJson } from '../../test/support/test-app.js';
import type { AuditEvent } from '../audit/audit-event.js';

const line = (s: string, p: string, o: string) => `<${s}> <${p}> ${o} .`;

/**
 * Writes through an LDP view on a real Community Solid Server (an external repository that records
 * nothing of ours): the view layer records each once, from what it sent; a revert works there too.
 */
describe('writes through a view on a Community Solid Server', () => {
  let site: AuditSite;
  beforeAll(async () => {
    site = await solidAuditSite(inject('cssBaseUrl'));
  }, 120_000);
  afterAll(async () => {
    await site.close();
  });

  it('records creation, a metadata change and its revert with the exact triples', async () => {
    const child = await newChild(site, site.rootUri, 'Solid');
    const [created] = (await site.ledger.ofAction('resource.create')).slice(-1);
    expectByCurator(site, created, child);
    expect(created!.detail).toEqual({ removed: [], added: [line(child, `${DC}title`, '"Solid"')] });

    const changed = await recordedDuring(site, () =>
      asCurator(site, 'PUT', `/metadata?${q(child)}&value=Liquid`, {
        subject: child,
        predicate: `${DC}title`,
        object: '"Solid"',
      }),
    );
    expect(changed).toHaveLength(1);
    expectByCurator(site, changed[0], child);
    expect(changed[0]!.detail).toEqual({
      removed: [line(child, `${DC}title`, '"Solid"')],
      added: [line(child, `${DC}title`, '"Liquid"')],
    });

    const response = await sendJson(site.t.app, 'POST', `/audit/${changed[0]!.id}/revert`, undefined, {
      token: site.curator.token,
    });
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
    expect((body(response).payload.AuditEvent as AuditEvent).detail).toEqual({
      removed: [line(child, `${DC}title`, '"Liquid"')],
      added: [line(child, `${DC}title`, '"Solid"')],
      revertOf: changed[0]!.id,
    });
  });

  it('records an upload with the digest and size of the bytes sent, and a delete', async () => {
    const container = await newChild(site, site.rootUri, 'Files');
    const uploaded = await recordedDuring(site, () => upload(site, container, 'solid bytes', 'solid.txt'));
    expect(uploaded).toHaveLength(1);
    expectByCurator(site, uploaded[0], uploaded[0]!.contextUri!);
    expect(uploaded[0]).toMatchObject({
      action: 'binary.upload',
      detail: { digest: sha512('solid bytes'), size: 11, mimeType: 'text/plain', filename: 'solid.txt' },
    });
    const gone = await recordedDuring(site, () => asCurator(site, 'DELETE', `?${q(container)}`));
    expect(gone.map((event) => event.action)).toEqual(['resource.delete']);
    expectByCurator(site, gone[0], container);
  });
});
