import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';

/**
 * A FEDORA view's `dialect` (pinned Fedora line, null = detect) and `detectedDialect` (what detection
 * found for the view's current configuration), issue 11 and DECISIONS.md §6.
 */

const VIEW = {
  type: 'FEDORA',
  name: 'Dialect view',
  rootUri: 'http://dialect.example.org/rest/',
  username: 'fedoraAdmin',
  password: 'secret-one',
};
const WRONG_DIALECT = "A repository view's dialect must be FEDORA_4, FEDORA_5 or FEDORA_6";
const NOT_FEDORA = 'Only a FEDORA view has a dialect';

type View = Record<string, unknown> & { id: number };

function invalid(messages: Record<string, Record<string, string>>) {
  return { ValidationResults: { valid: false, messages } };
}

async function save(t: TestApp, method: 'POST' | 'PUT', view: Record<string, unknown>): Promise<View> {
  const response = await sendJson(t.app, method, '/repository-view', view);
  const envelope = body(response);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload.RepositoryView as View;
}

async function read(t: TestApp, id: number): Promise<View> {
  return body(await sendJson(t.app, 'GET', `/repository-view/${id}`)).payload.RepositoryView as View;
}

describe('a view’s dialect: input and read model', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp({ embeddedRepository: false });
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers dialect and detectedDialect after metadataPrefixes; absent is null, detectedDialect is read-only', async () => {
    const detect = await save(t, 'POST', VIEW);
    expect(Object.keys(detect).slice(-3)).toEqual(['metadataPrefixes', 'dialect', 'detectedDialect']);
    expect(detect).toMatchObject({ dialect: null, detectedDialect: null });
    const pinned = await save(t, 'POST', {
      ...VIEW,
      name: 'Pinned',
      dialect: 'FEDORA_4',
      detectedDialect: 'FEDORA_5',
    });
    expect(pinned).toMatchObject({ dialect: 'FEDORA_4', detectedDialect: null });
    expect(await read(t, pinned.id)).toEqual(pinned);
    const list = body(await sendJson(t.app, 'GET', '/repository-view')).payload.LinkedList as View[];
    expect(list.map((view) => [view.dialect, view.detectedDialect])).toEqual([
      [null, null],
      ['FEDORA_4', null],
    ]);
  });

  it('refuses an unknown dialect and a dialect on an LDP view, naming the field', async () => {
    for (const dialect of ['FEDORA_7', 'fedora_4', 6, '', { line: 4 }]) {
      const response = await sendJson(t.app, 'POST', '/repository-view', { ...VIEW, dialect });
      expect(body(response).payload, JSON.stringify(dialect)).toEqual(
        invalid({ dialect: { type: WRONG_DIALECT } }),
      );
    }
    const ldp = await sendJson(t.app, 'POST', '/repository-view', {
      ...VIEW,
      type: 'LDP',
      dialect: 'FEDORA_5',
    });
    expect(body(ldp).payload).toEqual(invalid({ dialect: { type: NOT_FEDORA } }));
    expect(await save(t, 'POST', { ...VIEW, type: 'LDP', dialect: null })).toMatchObject({ dialect: null });
    // Only the LDP view without a dialect was created.
    expect(body(await sendJson(t.app, 'GET', '/repository-view')).payload.LinkedList).toHaveLength(1);
    // Verification reads the same field with the same rules.
    const verify = await sendJson(t.app, 'POST', '/repository-view/FEDORA/verify/ping', {
      ...VIEW,
      dialect: 'FEDORA_8',
    });
    expect(body(verify).payload).toEqual(invalid({ dialect: { type: WRONG_DIALECT } }));
  });

  it('on PUT: absent keeps the pinned dialect, null detects, a change of type to LDP drops it', async () => {
    const created = await save(t, 'POST', { ...VIEW, dialect: 'FEDORA_5' });
    const withoutDialect: Record<string, unknown> = { ...created };
    delete withoutDialect.dialect;
    expect(await save(t, 'PUT', { ...withoutDialect, name: 'Renamed' })).toMatchObject({
      name: 'Renamed',
      dialect: 'FEDORA_5',
    });
    expect(await save(t, 'PUT', { ...created, dialect: 'FEDORA_4' })).toMatchObject({ dialect: 'FEDORA_4' });
    expect(await save(t, 'PUT', { ...created, dialect: null })).toMatchObject({ dialect: null });
    await save(t, 'PUT', { ...created, dialect: 'FEDORA_6' });
    expect(await save(t, 'PUT', { ...withoutDialect, type: 'LDP' })).toMatchObject({
      type: 'LDP',
      dialect: null,
    });
    const wrong = await sendJson(t.app, 'PUT', '/repository-view', { ...created, dialect: 'FEDORA' });
    expect(body(wrong).payload).toEqual(invalid({ dialect: { type: WRONG_DIALECT } }));

    // Not where the credentials go: a curator of the view may change it.
    const curator = await createUser(t, 'ROLE_CURATOR', 'dialect-curator');
    const curated = await save(t, 'POST', { ...VIEW, name: 'Curated', curators: [{ id: curator.id }] });
    const response = await sendJson(
      t.app,
      'PUT',
      '/repository-view',
      { ...curated, password: null, dialect: 'FEDORA_4' },
      { token: curator.token },
    );
    expect(body(response).payload.RepositoryView).toMatchObject({ dialect: 'FEDORA_4' });
  });
});

describe('a view’s detected dialect', () => {
  let dir: string;
  let t: TestApp;
  let handle: DatabaseHandle;
  let embedded: EmbeddedView;
  /** Requests of the first detection probe (`fedora-api.md` §1.9) that reached the embedded repository. */
  let systemInfoProbes = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-dialect-'));
    t = await buildTestApp(
      {
        embeddedRepository: true,
        // A second connection writes the detected dialect directly: SQLite needs a file for it.
        ...(testDialect === 'sqlite'
          ? { database: { kind: 'sqlite', file: path.join(dir, 'db.sqlite') } }
          : {}),
      },
      {
        beforeReady: (app) => {
          app.addHook('onRequest', (request, _reply, done) => {
            if (request.url.includes('fcr:systeminfo')) systemInfoProbes++;
            done();
          });
        },
      },
    );
    embedded = await listenWithEmbeddedView(t);
    handle = connectDatabase(t.config.database);
  });
  afterAll(async () => {
    await handle.db.destroy();
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** As if detection had found `found` for the view's current configuration. */
  async function setDetected(id: number, found: string): Promise<void> {
    await sql`update repository_views set detected_dialect = ${found} where id = ${id}`.execute(handle.db);
    await t.changesSeen();
  }

  async function render(prefix: string): Promise<void> {
    const response = await sendJson(
      t.app,
      'GET',
      `${prefix}?contextUri=${encodeURIComponent(embedded.rootUri)}`,
    );
    expect(body(response).meta.status, response.body).toBe('SUCCESS');
  }

  it('keeps it while only the name, schemas or curators change, and forgets it with the configuration', async () => {
    const view = await save(t, 'POST', { ...VIEW, name: 'Forgetting' });
    await setDetected(view.id, 'FEDORA_4');
    expect(await read(t, view.id)).toMatchObject({ detectedDialect: 'FEDORA_4' });
    const unchanged = { ...view, password: null };
    expect(await save(t, 'PUT', { ...unchanged, name: 'Forgetting, renamed' })).toMatchObject({
      detectedDialect: 'FEDORA_4',
    });
    // Sent back as read, `detectedDialect` included: ignored, and nothing changed.
    expect(await save(t, 'PUT', { ...unchanged, detectedDialect: 'LDP', schemas: [] })).toMatchObject({
      detectedDialect: 'FEDORA_4',
    });
    const changes: Record<string, unknown>[] = [
      { rootUri: 'http://dialect.example.org/other/' },
      { username: 'someoneElse' },
      { password: 'secret-two' },
      { password: '' },
      { dialect: 'FEDORA_5' },
      { dialect: null },
      { type: 'LDP' },
    ];
    for (const change of changes) {
      await setDetected(view.id, 'FEDORA_4');
      const updated = await save(t, 'PUT', { ...unchanged, ...change, name: 'Forgetting, renamed' });
      expect(updated.detectedDialect, JSON.stringify(change)).toBeNull();
    }
  });

  it('stores what detection found on the embedded repository after a context GET', async () => {
    expect(await read(t, embedded.viewId)).toMatchObject({ dialect: null, detectedDialect: null });
    // Verification detects for a body, maybe unsaved: nothing it finds is stored.
    const credentials = resolveRepositoryCredentials(t.config);
    const verify = await sendJson(t.app, 'POST', '/repository-view/FEDORA/verify/content', {
      id: embedded.viewId,
      rootUri: embedded.rootUri,
      username: credentials.username,
      password: null,
    });
    expect(body(verify).meta.status, verify.body).toBe('SUCCESS');
    expect(await read(t, embedded.viewId)).toMatchObject({ detectedDialect: null });
    await render(embedded.prefix);
    // Stored after the answer (a failure to store must not fail the request), so polled for.
    await vi.waitFor(async () => {
      await t.changesSeen();
      expect(await read(t, embedded.viewId)).toMatchObject({ detectedDialect: 'FEDORA_6' });
    });
  });

  it('passes a pinned dialect to the adapter: no detection probe', async () => {
    const credentials = resolveRepositoryCredentials(t.config);
    const pinned = await save(t, 'POST', {
      ...VIEW,
      name: 'Pinned on the embedded repository',
      rootUri: embedded.rootUri,
      username: credentials.username,
      password: credentials.password,
      dialect: 'FEDORA_6',
    });
    systemInfoProbes = 0;
    await render(`/repository-view-context/FEDORA/${pinned.id}`);
    expect(systemInfoProbes).toBe(0);
    expect(await read(t, pinned.id)).toMatchObject({ dialect: 'FEDORA_6', detectedDialect: null });
    // The same view unpinned detects (so the count above could have been more than zero).
    await save(t, 'PUT', { ...pinned, password: null, dialect: null });
    await render(`/repository-view-context/FEDORA/${pinned.id}`);
    expect(systemInfoProbes).toBeGreaterThan(0);
  });
});
