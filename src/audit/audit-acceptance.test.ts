import { DOMParser } from '@xmldom/xmldom';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLedgerApp, openLedger } from '../../test/support/audit/ledger.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import type { AuditEvent } from './audit-event.js';

/**
 * Issue 30's "Done when", through the API, on each database: a curator edits metadata, uploads, versions,
 * runs and undoes a job; the admin reads each event with the curator's name and the exact triples; the
 * PREMIS document parses and names every event, object and agent; the chain verifies, then a tampered row
 * is found.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const DESCRIPTION = 'http://purl.org/dc/terms/description';
const PREMIS = 'http://www.loc.gov/premis/v3';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const nt = (s: string, p: string, literal: string) => `<${s}> <${p}> ${literal} .`;

let t: TestApp;
let view: EmbeddedView;
let curator: { id: number; username: string; token: string };
let collection: string;
let records: string[];
/** Each record's draft number (its title before the job). */
const draftOf = new Map<string, number>();
let binary: string;

function ok(response: { body: string }): Record<string, unknown> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload;
}

function asCurator(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return sendJson(t.app, method, url, payload, { token: curator.token });
}

async function childOf(parent: string, triples: { predicate: string; object: string }[]): Promise<string> {
  const before = new Set(await childrenOf(parent));
  ok(await asCurator('POST', `${view.prefix}/children?${q(parent)}`, triples));
  const created = (await childrenOf(parent)).filter((uri) => !before.has(uri));
  expect(created).toHaveLength(1);
  return created[0]!;
}

async function childrenOf(parent: string): Promise<string[]> {
  const context = ok(await asCurator('GET', `${view.prefix}?${q(parent)}`)).RepositoryViewContext as {
    children: { triple: { object: string } }[];
  };
  return context.children.map((child) => child.triple.object);
}

async function jobUntil(id: number, states: readonly string[]): Promise<{ id: number; state: string }> {
  for (let i = 0; i < 400; i++) {
    const job = ok(await asCurator('GET', `/curation-job/${id}`)).CurationJob as {
      id: number;
      state: string;
    };
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

async function auditOf(query: string): Promise<AuditEvent[]> {
  return ok(await sendJson(t.app, 'GET', `/audit?${query}&limit=1000`))[
    'ArrayList<AuditEvent>'
  ] as AuditEvent[];
}

beforeAll(async () => {
  t = await buildLedgerApp({ searchIndexNewViews: false });
  view = await listenWithEmbeddedView(t, 'Audit acceptance');
  curator = await createUser(t, 'ROLE_CURATOR');
  ok(
    await sendJson(t.app, 'PUT', '/repository-view', {
      ...(ok(await sendJson(t.app, 'GET', `/repository-view/${view.viewId}`)).RepositoryView as object),
      password: null,
      curators: [{ id: curator.id }],
    }),
  );
  collection = await childOf(view.rootUri, [{ predicate: TITLE, object: '"Collection"' }]);
  records = [];
  for (let n = 1; n <= 3; n++) {
    const record = await childOf(collection, [{ predicate: TITLE, object: `"draft ${n}"@en` }]);
    records.push(record);
    draftOf.set(record, n);
  }
  records.sort();
});
afterAll(async () => {
  await t.close();
});

describe('the audit trail, end to end', () => {
  it("records a curator's edit, upload, version and job with their name and the exact triples", async () => {
    const record = records[0]!;
    // Edit metadata: add, then change a value.
    ok(
      await asCurator('POST', `${view.prefix}/metadata?${q(record)}`, {
        subject: record,
        predicate: DESCRIPTION,
        object: '"first description"@en',
      }),
    );
    ok(
      await asCurator(
        'PUT',
        `${view.prefix}/metadata?${q(record)}&value=${encodeURIComponent('"second description"@en')}`,
        { subject: record, predicate: DESCRIPTION, object: '"first description"@en' },
      ),
    );
    // Upload a binary (multipart: it crosses loopback HTTP to the embedded repository).
    const boundary = 'audit';
    const upload = await t.app.inject({
      method: 'POST',
      url: `${view.prefix}/resource?${q(record)}`,
      headers: {
        authorization: `Bearer ${curator.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.txt"\r\nContent-Type: text/plain\r\n\r\nhello, audit\r\n--${boundary}--\r\n`,
    });
    ok(upload);
    binary = (await childrenOf(record)).at(-1)!;
    // A version.
    ok(await asCurator('POST', `${view.prefix}/version?${q(record)}&name=reviewed`));
    // A job: every record's title set by a CONSTANT operator, applied, then undone.
    const operator = (
      ok(
        await sendJson(t.app, 'POST', '/operators', {
          type: 'CONSTANT_OP',
          name: 'Title: catalogued (audit)',
          field: 'dcterms:title',
          value: 'Catalogued',
        }),
      ).ConstantOp as { id: number }
    ).id;
    const created = ok(
      await asCurator('POST', '/curation-job', {
        repositoryViewId: view.viewId,
        contextUri: collection,
        scope: 'CHILDREN',
        kind: 'MAPPING',
        operators: [operator],
      }),
    ).CurationJob as { id: number };
    await jobUntil(created.id, ['PREVIEWED']);
    ok(await asCurator('POST', `/curation-job/${created.id}/apply`));
    await jobUntil(created.id, ['APPLIED']);
    ok(await asCurator('POST', `/curation-job/${created.id}/undo`));
    await jobUntil(created.id, ['UNDONE']);

    // The admin reads it all back.
    const events = await auditOf(`repositoryViewId=${view.viewId}`);
    const mine = events.filter((event) => event.username === curator.username);
    const ofRecord = (action: string) =>
      mine.filter((event) => event.action === action && event.contextUri === record);
    const [changed, added] = ofRecord('metadata.update');
    // Newest first: the PUT, then the POST.
    expect(added!.detail).toEqual({
      removed: [],
      added: [nt(record, DESCRIPTION, '"first description"@en')],
    });
    expect(changed!.detail).toEqual({
      removed: [nt(record, DESCRIPTION, '"first description"@en')],
      added: [nt(record, DESCRIPTION, '"second description"@en')],
    });
    const uploads = mine.filter((event) => event.action === 'binary.upload' && event.contextUri === binary);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.detail).toMatchObject({
      size: 12,
      digest: expect.stringMatching(/^urn:sha-?512:[0-9a-f]{128}$/) as unknown,
    });
    expect(ofRecord('version.create')).toHaveLength(1);
    expect(ofRecord('version.create')[0]!.detail).toMatchObject({ label: 'reviewed' });
    for (const [action, from, to] of [
      // The CONSTANT operator keeps the value's language.
      ['job.apply', '"draft N"@en', '"Catalogued"@en'],
      ['job.undo', '"Catalogued"@en', '"draft N"@en'],
    ] as const) {
      const jobEvents = mine.filter((event) => event.action === action);
      expect(jobEvents.map((event) => event.contextUri).sort()).toEqual(records);
      for (const event of jobEvents) {
        const n = draftOf.get(event.contextUri!)!;
        expect(event.jobId).toBe(created.id);
        expect(event.detail).toEqual({
          removed: [nt(event.contextUri!, TITLE, from.replace('N', String(n)))],
          added: [nt(event.contextUri!, TITLE, to.replace('N', String(n)))],
        });
      }
    }
    // Recorded once each: no event of these requests has a twin.
    const keys = mine.map((event) => `${event.action} ${event.contextUri} ${JSON.stringify(event.detail)}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('answers PREMIS XML naming every event, object and agent, and the same as PREMIS 3 RDF', async () => {
    const events = (await auditOf(`repositoryViewId=${view.viewId}`)).filter(
      (event) => event.contextUri !== null,
    );
    const response = await sendJson(t.app, 'GET', `/audit/premis?repositoryViewId=${view.viewId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    const errors: string[] = [];
    const document = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    }).parseFromString(response.body, 'application/xml');
    expect(errors).toEqual([]);
    const root = document.documentElement!;
    expect(root.namespaceURI).toBe(PREMIS);
    const text = (name: string) =>
      Array.from(document.getElementsByTagNameNS(PREMIS, name)).map((element) => element.textContent ?? '');
    const values = new Set([
      ...text('eventIdentifierValue'),
      ...text('objectIdentifierValue'),
      ...text('agentIdentifierValue'),
      ...text('agentName'),
    ]);
    for (const event of events) {
      expect(
        [...values].some((value) => value.includes(String(event.id))),
        `event ${event.id}`,
      ).toBe(true);
      expect(values.has(event.contextUri!), `object ${event.contextUri}`).toBe(true);
      if (event.username !== null)
        expect([...values].some((value) => value.includes(event.username!))).toBe(true);
    }
    expect(document.getElementsByTagNameNS(PREMIS, 'event').length).toBe(events.length);
    // The service itself is an agent.
    expect(text('agentName').some((name) => /scriptorium/i.test(name))).toBe(true);

    const ttl = await sendJson(t.app, 'GET', `/audit/premis?repositoryViewId=${view.viewId}&format=ttl`);
    expect(ttl.headers['content-type']).toMatch(/^text\/turtle/);
    const quads = new Parser().parse(ttl.body);
    const typed = quads.filter(
      (quad) =>
        quad.predicate.value === 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type' &&
        quad.object.value === 'http://www.loc.gov/premis/rdf/v3/Event',
    );
    expect(typed).toHaveLength(events.length);
  });

  it('verifies the chain, then names a row edited behind the service’s back', async () => {
    const verified = ok(await sendJson(t.app, 'GET', '/audit/verify')).AuditVerification as {
      valid: boolean;
      checked: number;
      firstBrokenId: number | null;
    };
    expect(verified.valid).toBe(true);
    expect(verified.firstBrokenId).toBeNull();
    const ledger = openLedger(t);
    try {
      const all = await ledger.events();
      expect(verified.checked).toBe(all.length);
      const victim = all.find((event) => event.action === 'metadata.update')!;
      await ledger.db
        .updateTable('audit_events')
        .set({ detail: JSON.stringify({ removed: [], added: [] }) })
        .where('id', '=', victim.id)
        .execute();
    } finally {
      await ledger.close();
    }
    const broken = ok(await sendJson(t.app, 'GET', '/audit/verify')).AuditVerification as {
      valid: boolean;
      firstBrokenId: number | null;
    };
    expect(broken.valid).toBe(false);
    const victimId = (await auditOf('action=metadata.update')).at(-1)!.id;
    expect(broken.firstBrokenId).toBe(victimId);
  });
});
