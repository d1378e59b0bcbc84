import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { SECURITY_HEADERS } from '../http/security-headers.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { baseUrlOf, SseClient, type EventEnvelope } from '../../test/support/events/events.js';

/**
 * GET /events through real HTTP (DECISIONS.md §10): each publisher's events, who sees which, the one-time
 * ticket, keep-alives, Last-Event-ID and the end of a stream with its session. "Must not arrive" is
 * checked with a marker event sent after it: a stream delivers in order, so what did not come before the
 * marker never comes.
 */
const KEEP_ALIVE_MS = 150;
let t: TestApp;
let v: EmbeddedView;
let base: string;
const open: SseClient[] = [];
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

beforeAll(async () => {
  t = await buildTestApp({}, { events: { keepAliveMs: KEEP_ALIVE_MS } });
  v = await listenWithEmbeddedView(t);
  base = baseUrlOf(t.app);
});
afterEach(() => {
  for (const stream of open.splice(0)) stream.close();
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
});

async function subscribe(
  token: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<SseClient> {
  const stream = await SseClient.open(`${base}/events${query}`, {
    authorization: `Bearer ${token}`,
    ...headers,
  });
  open.push(stream);
  return stream;
}

async function openWithTicket(ticket: string): Promise<SseClient> {
  const stream = await SseClient.open(`${base}/events?ticket=${encodeURIComponent(ticket)}`);
  open.push(stream);
  return stream;
}

let schemaCount = 0;
async function createSchema(): Promise<number> {
  schemaCount++;
  const response = await sendJson(t.app, 'POST', '/schema', {
    name: `EVENTS_${schemaCount}`,
    abbreviation: `ev${schemaCount}`,
    namespace: `http://example.org/events-${schemaCount}#`,
    properties: [{ uri: `http://example.org/events-${schemaCount}#p`, label: 'P' }],
  });
  expect(body(response).meta.status).toBe('SUCCESS');
  return (body(response).payload.Schema as { id: number }).id;
}

/** A second view on the embedded repository, curated by `curatorIds`. */
async function createView(name: string, curatorIds: number[]): Promise<number> {
  const credentials = resolveRepositoryCredentials(t.config);
  const response = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'FEDORA',
    name,
    rootUri: v.rootUri,
    username: credentials.username,
    password: credentials.password,
    schemas: [],
    curators: curatorIds.map((id) => ({ id })),
  });
  expect(body(response).meta.status).toBe('SUCCESS');
  return (body(response).payload.RepositoryView as { id: number }).id;
}

async function createChild(viewId: number): Promise<void> {
  const response = await sendJson(
    t.app,
    'POST',
    `/repository-view-context/FEDORA/${viewId}/children?${q(v.rootUri)}`,
    [],
  );
  expect(body(response).meta.status).toBe('SUCCESS');
}

const isSchema = (id: number) => (envelope: EventEnvelope, event: string | undefined) =>
  event === 'schema' && envelope.meta.id === String(id);

describe(`GET /events (${testDialect})`, () => {
  it('streams every publisher’s changes to an administrator as envelopes', async () => {
    const stream = await subscribe(t.adminToken);

    const schemaId = await createSchema();
    const schema = await stream.waitForEvent(isSchema(schemaId));
    expect(Object.keys(schema.envelope.meta)).toEqual(['status', 'action', 'message', 'id']);
    expect(schema.envelope.meta).toMatchObject({
      status: 'SUCCESS',
      action: 'CREATE',
      message: 'Schema created',
    });
    expect(schema.envelope.payload.Schema).toMatchObject({ id: schemaId, abbreviation: `ev${schemaCount}` });

    const user = await createUser(t, 'ROLE_USER');
    const userEvent = await stream.waitForEvent(
      (e, event) => event === 'user' && e.meta.id === String(user.id),
    );
    expect(userEvent.envelope.meta.action).toBe('CREATE');
    expect(userEvent.envelope.payload.User).toEqual(
      expect.objectContaining({ id: user.id, username: user.username, role: 'ROLE_USER' }),
    );
    expect(JSON.stringify(userEvent.envelope)).not.toMatch(/password/i);

    const viewId = await createView('Events view', []);
    const created = await stream.waitForEvent(
      (e, event) => event === 'repository-view' && e.meta.id === String(viewId),
    );
    expect(created.envelope.meta.action).toBe('CREATE');
    expect(created.envelope.payload.RepositoryView).toMatchObject({
      id: viewId,
      name: 'Events view',
      password: null,
    });
    expect(JSON.stringify(created.envelope)).not.toContain(resolveRepositoryCredentials(t.config).password);
    await sendJson(t.app, 'DELETE', '/repository-view', { id: viewId });
    const deleted = await stream.waitForEvent(
      (e, event) => event === 'repository-view' && e.meta.id === String(viewId) && e.meta.action === 'DELETE',
    );
    expect(deleted.envelope.payload).toEqual({});

    await createChild(v.viewId);
    const child = await stream.waitForEvent(
      (e, event) => event === `context/${v.viewId}` && e.meta.action === 'CREATE',
    );
    const childUri = child.envelope.meta.id;
    expect(childUri.startsWith(v.rootUri) && childUri !== v.rootUri).toBe(true);
    expect(child.envelope.payload).toEqual({ contextUri: childUri });
    const triple = { subject: childUri, predicate: 'http://purl.org/dc/terms/title', object: '"Events"' };
    const added = await sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(childUri)}`, triple);
    expect(body(added).meta.status).toBe('SUCCESS');
    const update = await stream.waitForEvent(
      (e, event) => event === `context/${v.viewId}` && e.meta.action === 'UPDATE' && e.meta.id === childUri,
    );
    expect(update.envelope.meta.message).toBe('Metadata added');
    expect(body(await sendJson(t.app, 'DELETE', `${v.prefix}?${q(childUri)}`)).meta.status).toBe('SUCCESS');
    await stream.waitForEvent(
      (e, event) => event === `context/${v.viewId}` && e.meta.action === 'DELETE' && e.meta.id === childUri,
    );

    // Ids increase, each event comes once.
    const ids = stream.events.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('shows a curator only their views’ events and no user events; a USER no view events', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR');
    const reader = await createUser(t, 'ROLE_USER');
    const theirs = await createView('Curated view', [curator.id]);
    const curatorStream = await subscribe(curator.token);
    const readerStream = await subscribe(reader.token);

    await createChild(v.viewId); // not the curator's view
    await createUser(t, 'ROLE_USER');
    const otherView = await createView('Not curated', []);
    const schemaId = await createSchema();
    await createChild(theirs); // marker for the curator
    const update = { id: reader.id, firstName: 'Ada', lastName: 'Reader', email: 'ada@example.org' };
    expect(body(await sendJson(t.app, 'POST', '/user/update', update)).meta.status).toBe('SUCCESS');

    await curatorStream.waitForEvent((_, event) => event === `context/${theirs}`);
    expect(curatorStream.events.map((e) => e.event)).toEqual(['schema', `context/${theirs}`]);
    expect(curatorStream.events[0]?.envelope.meta.id).toBe(String(schemaId));

    // The reader's marker: their own record changed.
    const own = await readerStream.waitForEvent(
      (e, event) => event === 'user' && e.meta.id === String(reader.id),
    );
    expect(own.envelope.payload.User).toMatchObject({ firstName: 'Ada' });
    expect(readerStream.events.map((e) => e.event)).toEqual(['user']);
    expect(otherView).toBeGreaterThan(0);
  });

  it('accepts a one-time ticket instead of the header, once, and never a token in the URL', async () => {
    const curator = await createUser(t, 'ROLE_CURATOR');
    const issued = await sendJson(t.app, 'POST', '/events/ticket', undefined, { token: curator.token });
    const { ticket, expires } = body(issued).payload.EventTicket as { ticket: string; expires: number };
    expect(expires - Date.now()).toBeGreaterThan(55_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(60_000);

    const stream = await openWithTicket(ticket);
    const schemaId = await createSchema();
    await stream.waitForEvent(isSchema(schemaId));

    const again = await fetch(`${base}/events?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect(((await again.json()) as EventEnvelope).meta.status).toBe('UNAUTHORIZED');
    for (const url of [`/events?token=${t.adminToken}`, '/events?ticket=not-a-ticket', '/events']) {
      const refused = await fetch(`${base}${url}`);
      expect(refused.status, url).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    }
    // A ticket opens only the event stream.
    const elsewhere = await sendJson(t.app, 'POST', '/events/ticket', undefined, { token: curator.token });
    const other = (body(elsewhere).payload.EventTicket as { ticket: string }).ticket;
    expect((await fetch(`${base}/user/credentials?ticket=${other}`)).status).toBe(401);
    expect((await fetch(`${base}/events/ticket?ticket=${other}`, { method: 'POST' })).status).toBe(401);
  });

  it('refuses a ticket after its 60 s', async () => {
    const issued = await sendJson(t.app, 'POST', '/events/ticket');
    const { ticket } = body(issued).payload.EventTicket as { ticket: string };
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_001);
    expect((await fetch(`${base}/events?ticket=${ticket}`)).status).toBe(401);
  });

  it('answers a stream with the security headers, and HEAD without one', async () => {
    const stream = await subscribe(t.adminToken);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(stream.headers.get(name), name).toBe(value);
    const head = await fetch(`${base}/events`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  });

  it('sends keep-alive comments', async () => {
    const stream = await subscribe(t.adminToken);
    await stream.waitFor((message) => message.comment === 'keep-alive', KEEP_ALIVE_MS * 20);
  });

  it('replays what was missed after Last-Event-ID (header or query parameter)', async () => {
    const first = await subscribe(t.adminToken);
    const seen = await first.waitForEvent(isSchema(await createSchema()));
    first.close();
    const missed = [await createSchema(), await createSchema()];
    for (const resume of [
      () => subscribe(t.adminToken, { 'last-event-id': seen.id ?? '' }),
      () => subscribe(t.adminToken, {}, `?lastEventId=${seen.id ?? ''}`),
    ]) {
      const stream = await resume();
      await stream.waitForEvent(isSchema(missed[1] ?? 0));
      // The schema channel's (the ledger's `audit` events of the same changes go to administrators too).
      const schemas = stream.events.filter((e) => e.event === 'schema');
      expect(schemas.map((e) => e.envelope.meta.id)).toEqual(missed.map(String));
    }
    const bad = await fetch(`${base}/events`, {
      headers: { authorization: `Bearer ${t.adminToken}`, 'last-event-id': 'x1' },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as EventEnvelope).meta.status).toBe('ERROR');
  });

  it('ends a stream when its token is revoked, and a ticket’s stream with its session', async () => {
    const user = await createUser(t, 'ROLE_USER');
    const stream = await subscribe(user.token);
    const issued = await sendJson(t.app, 'POST', '/events/ticket', undefined, { token: user.token });
    const ticketStream = await openWithTicket(
      (body(issued).payload.EventTicket as { ticket: string }).ticket,
    );
    const unused = await sendJson(t.app, 'POST', '/events/ticket', undefined, { token: user.token });
    expect(stream.isEnded).toBe(false);

    await sendJson(t.app, 'POST', '/auth/logout', undefined, { token: user.token });
    await Promise.all([stream.ended, ticketStream.ended]);
    // The session's unused tickets went with it.
    const ticket = (body(unused).payload.EventTicket as { ticket: string }).ticket;
    expect((await fetch(`${base}/events?ticket=${ticket}`)).status).toBe(401);
  });

  it('ends the open streams when the app closes', async () => {
    const other = await buildTestApp();
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await SseClient.open(`${baseUrlOf(other.app)}/events`, {
      authorization: `Bearer ${other.adminToken}`,
    });
    open.push(stream);
    await other.close();
    await stream.ended;
  });
});
