import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLedgerApp, openLedger, type LedgerReader } from '../../../test/support/audit/ledger.js';
import {
  childElements,
  parseTurtle,
  parseXml,
  premisChildren,
  premisText,
} from '../../../test/support/audit/premis.js';
import { body, createUser, sendJson, type TestApp } from '../../../test/support/test-app.js';
import { SECURITY_HEADERS } from '../../http/security-headers.js';
import { resolveRepositoryCredentials } from '../../embedded-repository/credentials.js';
import type { AuditEntry } from '../audit-event.js';
import { PREMIS_MAX_EVENTS } from './premis-source.js';

/**
 * GET /audit/premis through the real app: events appended to the ledger through a second connection (the
 * recorders are other parts of issue 30), read back as PREMIS 3.0 XML and PREMIS 3 RDF.
 */
let t: TestApp;
let ledger: LedgerReader;
let viewA: number;
let viewB: number;
let curatorA: { id: number; username: string; token: string };
let curatorB: { id: number; username: string; token: string };

const ROOT = 'http://localhost/rest/';
const LETTER = `${ROOT}letter`;
const SCAN = `${ROOT}letter/scan.tif`;
const OTHER = `${ROOT}other`;
const TRIPLE = `<${LETTER}> <http://purl.org/dc/terms/title> "Dear & <friend>" .`;

function entry(fields: Partial<AuditEntry> & Pick<AuditEntry, 'action'>): AuditEntry {
  return {
    username: curatorA.username,
    repositoryViewId: viewA,
    contextUri: LETTER,
    jobId: null,
    requestId: null,
    outcome: 'SUCCESS',
    detail: {},
    ...fields,
  };
}

const premis = (query: string, token?: string | null) =>
  sendJson(t.app, 'GET', `/audit/premis?${query}`, undefined, { token });

function refused(response: LightMyRequestResponse, http: number, status: string) {
  expect(response.statusCode, response.body).toBe(http);
  expect(response.headers['content-type']).toMatch(/^application\/json/u);
  const envelope = body(response);
  expect(envelope.meta.status).toBe(status);
  return envelope;
}

beforeAll(async () => {
  t = await buildLedgerApp();
  ledger = openLedger(t);
  curatorA = await createUser(t, 'ROLE_CURATOR');
  curatorB = await createUser(t, 'ROLE_CURATOR');
  const views = body(await sendJson(t.app, 'GET', '/repository-view')).payload.LinkedList as Record<
    string,
    unknown
  >[];
  const first = views[0]!;
  viewA = first.id as number;
  expect(
    body(
      await sendJson(t.app, 'PUT', '/repository-view', {
        ...first,
        password: null,
        curators: [{ id: curatorA.id }],
      }),
    ).meta.status,
  ).toBe('SUCCESS');
  const created = body(
    await sendJson(t.app, 'POST', '/repository-view', {
      ...first,
      id: undefined,
      name: 'Another view',
      password: resolveRepositoryCredentials(t.config).password,
      curators: [{ id: curatorB.id }],
    }),
  );
  expect(created.meta.status).toBe('SUCCESS');
  viewB = (created.payload.RepositoryView as { id: number }).id;

  await ledger.store.append([
    entry({ action: 'resource.create', detail: { removed: [], added: [TRIPLE] } }),
    entry({ action: 'metadata.update', detail: { removed: [TRIPLE], added: [TRIPLE, TRIPLE] } }),
    entry({
      action: 'binary.upload',
      contextUri: SCAN,
      detail: {
        digest: `urn:sha-512:${'0f'.repeat(64)}`,
        size: 42,
        mimeType: 'image/tiff',
        filename: 'scan "1".tif',
      },
    }),
    entry({
      action: 'fixity.check',
      contextUri: SCAN,
      outcome: 'FAILURE',
      detail: { status: 'BAD_CHECKSUM', digest: 'urn:sha-512:00', size: 42 },
    }),
    entry({
      action: 'version.create',
      detail: { version: `${LETTER}/fcr:versions/20261128`, label: 'before' },
    }),
    entry({ action: 'job.apply', jobId: 7, username: 'admin', detail: { removed: [], added: [TRIPLE] } }),
    // Another view's event, a configuration change (no resource) and a sign-in: never in view A's document.
    entry({
      action: 'metadata.update',
      repositoryViewId: viewB,
      contextUri: OTHER,
      username: curatorB.username,
    }),
    entry({
      action: 'user.update',
      contextUri: null,
      username: 'admin',
      detail: { id: curatorA.id, name: curatorA.username, fields: { password: '(changed)' } },
    }),
    entry({
      action: 'auth.login',
      contextUri: null,
      outcome: 'FAILURE',
      detail: { reason: 'Bad credentials' },
    }),
  ]);
});

afterAll(async () => {
  await ledger.close();
  await t.close();
});

describe('GET /audit/premis', () => {
  it('answers PREMIS 3.0 XML naming every event, object and agent of the view, with the security headers', async () => {
    const response = await premis(`repositoryViewId=${viewA}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers[name]).toBe(value);

    const root = parseXml(response.body).documentElement!;
    expect(root.localName).toBe('premis');
    expect(root.getAttribute('version')).toBe('3.0');
    // The schema's order: objects, events, agents.
    const order = childElements(root).map((el) => el.localName);
    expect(order.join(' ')).toMatch(/^(object )+(event )+(agent ?)+$/u);

    const objects = premisChildren(root, 'object').map((object) =>
      premisText(object, 'objectIdentifierValue'),
    );
    expect(objects).toEqual([LETTER, SCAN]);
    const events = premisChildren(root, 'event');
    expect(events.map((event) => premisText(event, 'eventType'))).toEqual([
      'creation',
      'modification',
      'ingestion',
      'fixity check',
      'replication',
      'modification',
    ]);
    const ids = events.map((event) => Number(premisText(event, 'eventIdentifierValue')));
    const stored = (await ledger.events()).filter(
      (event) => event.repositoryViewId === viewA && event.contextUri !== null,
    );
    expect(ids).toEqual(stored.map((event) => event.id));
    expect(events.map((event) => premisText(event, 'eventDateTime'))).toEqual(
      stored.map((event) => event.time),
    );
    expect(premisText(events[1]!, 'eventDetail')).toBe(
      `Metadata changed: 1 triple removed, 2 added (through repository view ${viewA})`,
    );
    expect(premisText(events[3]!, 'eventOutcome')).toBe('failure');
    expect(premisText(events[3]!, 'eventOutcomeDetailNote')).toContain('BAD_CHECKSUM');
    expect(premisText(events[5]!, 'eventDetail')).toContain('by curation job 7');

    const agents = premisChildren(root, 'agent').map((agent) => [
      premisText(agent, 'agentName'),
      premisText(agent, 'agentType'),
    ]);
    expect(agents).toEqual([
      [curatorA.username, 'person'],
      ['admin', 'person'],
      ['Scriptorium', 'software'],
    ]);
    expect(premisText(premisChildren(root, 'agent')[2]!, 'agentVersion')).toMatch(/^\d+\.\d+\.\d+/u);
    expect(premisText(premisChildren(root, 'object')[1]!, 'originalName')).toBe('scan "1".tif');
    expect(response.body).not.toContain(OTHER);
    expect(response.body).not.toContain('(changed)');
    expect(response.body).not.toContain('Bad credentials');
  });

  it('narrows to one resource with contextUri', async () => {
    const response = await premis(`repositoryViewId=${viewA}&contextUri=${encodeURIComponent(SCAN)}`);
    const root = parseXml(response.body).documentElement!;
    expect(
      premisChildren(root, 'object').map((object) => premisText(object, 'objectIdentifierValue')),
    ).toEqual([SCAN]);
    expect(premisChildren(root, 'event').map((event) => premisText(event, 'eventType'))).toEqual([
      'ingestion',
      'fixity check',
    ]);
  });

  it('answers the same as PREMIS 3 RDF with ?format=ttl: one premis:Event per event, with its LoC eventType IRI', async () => {
    const response = await premis(`repositoryViewId=${viewA}&format=ttl`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const quads = parseTurtle(response.body);
    const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
    const events = quads
      .filter(
        (q) => q.predicate.value === TYPE && q.object.value === 'http://www.loc.gov/premis/rdf/v3/Event',
      )
      .map((q) => q.subject.value);
    expect(events).toHaveLength(6);
    const types = events.map(
      (event) =>
        quads.find(
          (q) =>
            q.subject.value === event &&
            q.predicate.value === TYPE &&
            q.object.value.startsWith('http://id.loc.gov/vocabulary/preservation/eventType/'),
        )?.object.value,
    );
    expect(types).toEqual(
      ['cre', 'mod', 'ing', 'fix', 'rep', 'mod'].map(
        (code) => `http://id.loc.gov/vocabulary/preservation/eventType/${code}`,
      ),
    );
    // The view's first event (the ledger also holds the configuration the suite made, which PREMIS leaves out).
    const first = (await ledger.events()).find(
      (event) => event.repositoryViewId === viewA && event.contextUri !== null,
    );
    expect(events[0]).toBe(`${t.config.publicUrl}/audit/premis#event-${first!.id}`);
  });

  it('lets a curator read the views they curate, and refuses another view with 403', async () => {
    expect((await premis(`repositoryViewId=${viewA}`, curatorA.token)).statusCode).toBe(200);
    refused(await premis(`repositoryViewId=${viewA}`, curatorB.token), 403, 'UNAUTHORIZED');
    refused(await premis(`repositoryViewId=${viewB}`, curatorA.token), 403, 'UNAUTHORIZED');
    // A view that does not exist looks the same to a curator (ids cannot be probed).
    refused(await premis('repositoryViewId=987654', curatorA.token), 403, 'UNAUTHORIZED');
    const user = await createUser(t, 'ROLE_USER');
    refused(await premis(`repositoryViewId=${viewA}`, user.token), 403, 'UNAUTHORIZED');
    refused(await premis(`repositoryViewId=${viewA}`, null), 401, 'UNAUTHORIZED');
  });

  it('refuses an unknown format as INVALID, and a missing or malformed view id as a 400', async () => {
    const invalid = refused(await premis(`repositoryViewId=${viewA}&format=json`), 200, 'INVALID');
    expect(JSON.stringify(invalid.payload)).toContain('The query parameter format must be xml or ttl');
    refused(await premis('format=xml'), 400, 'ERROR');
    refused(await premis('repositoryViewId=abc'), 400, 'ERROR');
    refused(await premis('repositoryViewId=0'), 400, 'ERROR');
  });

  it("gives an ADMIN a deleted view's events, and refuses more than the cap with INVALID", async () => {
    const gone = 424242;
    const empty = await premis(`repositoryViewId=${gone}`);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(premisChildren(parseXml(empty.body).documentElement!, 'event')).toHaveLength(0);

    await ledger.store.append(
      Array.from({ length: PREMIS_MAX_EVENTS + 1 }, (_, i) =>
        entry({ action: 'metadata.update', repositoryViewId: gone, contextUri: `${ROOT}bulk/${i % 50}` }),
      ),
    );
    const tooMany = refused(await premis(`repositoryViewId=${gone}`), 200, 'INVALID');
    expect(JSON.stringify(tooMany.payload)).toContain('narrow with contextUri');
    const one = await premis(`repositoryViewId=${gone}&contextUri=${encodeURIComponent(`${ROOT}bulk/3`)}`);
    expect(premisChildren(parseXml(one.body).documentElement!, 'event')).toHaveLength(200);
  }, 60_000);
});
