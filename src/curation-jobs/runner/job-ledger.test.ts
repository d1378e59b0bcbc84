import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditEvent } from '../../audit/audit-event.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import { retitle, titled, titlesOf } from '../../../test/support/curation-jobs/work.js';
import {
  jobUntil,
  ledgerSite,
  payloadOf,
  type LedgerSite,
} from '../../../test/support/curation-jobs/ledger-sites.js';
import { sendJson, TEST_ADMIN } from '../../../test/support/test-app.js';

/**
 * Issue 30 (DECISIONS.md §14) through the real app: every resource a curation job's apply or undo writes is
 * one `job.apply` / `job.undo` event, as the person who asked, with the job, the view and the exact triples;
 * every binary a FIXITY job checks one `fixity.check`. "Once" is asserted, not who recorded it: the
 * embedded repository may record its own writes (held until its transaction commits), the job records
 * what nobody else did.
 */

const TITLE = `${NS.dc}title`;
const line = (uri: string, title: string) => `<${uri}> <${TITLE}> "${title}"@en .`;

/** One event per resource, by IRI (a doubled event would fail `toEqual` on the length). */
const byUri = (events: readonly AuditEvent[]) =>
  [...events].sort((a, b) => (a.contextUri ?? '').localeCompare(b.contextUri ?? ''));

const sites = [
  ['the embedded repository (FEDORA: one transaction)', () => ledgerSite({ embedded: true }), true],
  [
    'a Community Solid Server (LDP: If-Match per resource)',
    () => ledgerSite({ cssBaseUrl: inject('cssBaseUrl') }),
    false,
  ],
] as const;

describe.each(sites)('curation job events on %s', (_name, makeSite, transacts) => {
  let site: LedgerSite;
  let operatorId: number;

  beforeAll(async () => {
    site = await makeSite();
    const created = payloadOf(
      await sendJson(site.t.app, 'POST', '/operators', {
        type: 'REGEX_REPLACE_OP',
        name: 'draft to final',
        field: 'dc:title',
        regex: 'draft',
        value: 'final',
      }),
    );
    operatorId = (Object.values(created)[0] as { id: number }).id;
  });
  afterAll(async () => {
    await site.close();
  });

  /** A container with children titled as given (written straight to the repository). */
  async function collection(titles: readonly string[]): Promise<{ col: string; children: string[] }> {
    const col = await site.adapter.createChild(site.rootUri, []);
    const children: string[] = [];
    for (const title of titles) children.push(await titled(site.adapter, col, title));
    return { col, children };
  }

  async function previewed(col: string): Promise<number> {
    const job = payloadOf(
      await sendJson(
        site.t.app,
        'POST',
        '/curation-job',
        {
          repositoryViewId: site.viewId,
          contextUri: col,
          scope: 'CHILDREN',
          kind: 'MAPPING',
          operators: [operatorId],
          dryRun: true,
        },
        { token: site.curator.token },
      ),
    ).CurationJob as { id: number };
    await jobUntil(site, job.id, ['PREVIEWED'], site.curator.token);
    return job.id;
  }

  async function request(id: number, what: 'apply' | 'undo', token?: string): Promise<void> {
    payloadOf(await sendJson(site.t.app, 'POST', `/curation-job/${id}/${what}`, {}, { token }));
  }

  /** The job's events, but the repository transaction's own (begin, commit, rollback). */
  async function eventsOf(jobId: number): Promise<AuditEvent[]> {
    return (await site.ledger.events()).filter(
      (event) => event.jobId === jobId && !event.action.startsWith('transaction.'),
    );
  }

  it('records an apply as the curator who asked and an undo as the admin who asked, once per resource, with the exact triples', async () => {
    const { col, children } = await collection(['draft one', 'draft two', 'kept as is', 'draft three']);
    const [one, two, kept, three] = children as [string, string, string, string];
    const id = await previewed(col);
    expect(await eventsOf(id)).toEqual([]);

    await request(id, 'apply', site.curator.token);
    expect((await jobUntil(site, id, ['APPLIED', 'FAILED'], site.curator.token)).state).toBe('APPLIED');
    const applied = await eventsOf(id);
    const written = (uri: string, n: string) => ({
      action: 'job.apply',
      username: site.curatorName,
      repositoryViewId: site.viewId,
      contextUri: uri,
      jobId: id,
      requestId: null,
      outcome: 'SUCCESS',
      detail: { removed: [line(uri, `draft ${n}`)], added: [line(uri, `final ${n}`)] },
    });
    expect(byUri(applied)).toEqual(
      byUri([written(one, 'one'), written(two, 'two'), written(three, 'three')] as never).map(
        (expected): unknown => expect.objectContaining(expected),
      ),
    );
    expect(applied.some((event) => event.contextUri === kept)).toBe(false);

    await request(id, 'undo');
    expect((await jobUntil(site, id, ['UNDONE', 'FAILED'], site.curator.token)).state).toBe('UNDONE');
    const undone = (await eventsOf(id)).filter((event) => event.action !== 'job.apply');
    const restored = (uri: string, n: string) => ({
      action: 'job.undo',
      username: TEST_ADMIN.username,
      repositoryViewId: site.viewId,
      contextUri: uri,
      jobId: id,
      outcome: 'SUCCESS',
      detail: { removed: [line(uri, `final ${n}`)], added: [line(uri, `draft ${n}`)] },
    });
    expect(byUri(undone)).toEqual(
      byUri([restored(one, 'one'), restored(two, 'two'), restored(three, 'three')] as never).map(
        (expected): unknown => expect.objectContaining(expected),
      ),
    );
    expect(await site.ledger.store.verify()).toMatchObject({ valid: true, firstBrokenId: null });
  });

  it('records a + row of a sheet as the resource it created, and its undo as the deletion', async () => {
    const col = await site.adapter.createChild(site.rootUri, []);
    const job = payloadOf(
      await sendJson(
        site.t.app,
        'POST',
        '/curation-job',
        {
          repositoryViewId: site.viewId,
          contextUri: col,
          kind: 'SPREADSHEET',
          dryRun: false,
          spreadsheet: 'contextUri,etag,dc:title\n+,,A new record\n',
        },
        { token: site.curator.token },
      ),
    ).CurationJob as { id: number };
    expect((await jobUntil(site, job.id, ['APPLIED', 'FAILED'], site.curator.token)).state).toBe('APPLIED');
    const [created, ...more] = await eventsOf(job.id);
    expect(more).toEqual([]);
    const uri = created?.contextUri ?? '';
    expect(uri.startsWith(col)).toBe(true);
    const made = `<${uri}> <${TITLE}> "A new record" .`;
    // The curator who created a job that writes through applied it.
    expect(created).toMatchObject({
      action: 'job.apply',
      username: site.curatorName,
      jobId: job.id,
      detail: expect.objectContaining({ added: [made] }) as unknown,
    });
    // Said by the job (external) or by the embedded repository recording the write itself, alike.
    expect(created?.detail).toMatchObject({ added: [made], created: true });

    await request(job.id, 'undo', site.curator.token);
    expect((await jobUntil(site, job.id, ['UNDONE', 'FAILED'], site.curator.token)).state).toBe('UNDONE');
    const undone = (await eventsOf(job.id)).filter((event) => event.action === 'job.undo');
    expect(undone).toEqual([
      expect.objectContaining({ contextUri: uri, username: site.curatorName, jobId: job.id }),
    ]);
    expect(undone[0]?.detail).toMatchObject({ removed: [made], deleted: true });
  });

  it('records nothing for the resources an apply stopped by a conflict did not write', async () => {
    const { col, children } = await collection(['draft one', 'draft two', 'draft three']);
    const id = await previewed(col);
    const edited = children[1]!;
    await retitle(site.adapter, edited, 'draft two', 'edited by hand');

    await request(id, 'apply', site.curator.token);
    expect((await jobUntil(site, id, ['APPLIED', 'FAILED'], site.curator.token)).state).toBe('FAILED');
    const finals: string[] = [];
    for (const uri of children)
      if ((await titlesOf(site.adapter, uri)).some((title) => title.startsWith('final '))) finals.push(uri);
    const recorded = (await eventsOf(id)).map((event) => event.contextUri);
    // FEDORA rolls the whole apply back; LDP keeps what it wrote before the conflict: exactly those.
    if (transacts) expect(finals).toEqual([]);
    expect(recorded.sort()).toEqual(finals.sort());
    expect(recorded).not.toContain(edited);
  });
});

describe('FIXITY job events on the embedded repository', () => {
  let site: LedgerSite;
  beforeAll(async () => {
    site = await ledgerSite({ embedded: true });
  });
  afterAll(async () => {
    await site.close();
  });

  /** Where the embedded repository keeps a binary's bytes (content-addressed by its SHA-512). */
  async function storedFile(uri: string): Promise<string> {
    const description = await site.adapter.describe(uri);
    const digest = description.quads
      .filter((q) => q.predicate.value === `${NS.premis}hasMessageDigest`)
      .map((q) => q.object.value)
      .find((value) => value.startsWith('urn:sha-512:'));
    const hex = (digest ?? '').slice('urn:sha-512:'.length);
    return path.join(site.t.config.dataDir, 'binaries', hex.slice(0, 2), hex.slice(2, 4), hex);
  }

  it('records one fixity.check per binary as the curator who started the job, FAILURE for a corrupted one', async () => {
    const col = await site.adapter.createChild(site.rootUri, []);
    const upload = (name: string, text: string) =>
      site.adapter.uploadBinary(col, {
        content: Readable.from([Buffer.from(text)]),
        filename: name,
        contentType: 'text/plain',
      });
    const sound = await upload('sound.txt', 'these bytes stay as they are');
    const rotten = await upload('rotten.txt', 'these bytes are about to rot');
    const file = await storedFile(rotten);
    const bytes = fs.readFileSync(file);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);

    const job = payloadOf(
      await sendJson(
        site.t.app,
        'POST',
        '/curation-job',
        { repositoryViewId: site.viewId, contextUri: col, scope: 'CHILDREN', kind: 'FIXITY' },
        { token: site.curator.token },
      ),
    ).CurationJob as { id: number };
    expect((await jobUntil(site, job.id, ['COMPLETED', 'FAILED'], site.curator.token)).state).toBe(
      'COMPLETED',
    );
    const checks = (await site.ledger.ofAction('fixity.check')).filter((event) => event.jobId === job.id);
    const checked = (uri: string, outcome: string, status: string): unknown =>
      expect.objectContaining({
        username: site.curatorName,
        repositoryViewId: site.viewId,
        contextUri: uri,
        jobId: job.id,
        outcome,
        detail: expect.objectContaining({ status }) as unknown,
      });
    expect(byUri(checks)).toEqual(
      [
        [sound, checked(sound, 'SUCCESS', 'SUCCESS')],
        [rotten, checked(rotten, 'FAILURE', 'BAD_CHECKSUM')],
      ]
        .sort(([a], [b]) => String(a).localeCompare(String(b)))
        .map(([, expected]) => expected),
    );
    expect(String(checks.find((event) => event.contextUri === sound)?.detail.digest)).toMatch(
      /^urn:sha-(512|256|1):[0-9a-f]+$/,
    );
  });
});
