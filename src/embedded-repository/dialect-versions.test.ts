import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  graphOf,
  NS,
  objects,
  repo,
  sparql,
} from '../../test/support/repository-client.js';

/** Versions as Fedora 4.7 (labelled checkpoints) and 5.x (Memento) answer them, fedora-api.md §1.7. */
let v4: TestApp;
let v5: TestApp;
beforeAll(async () => {
  v4 = await buildRepositoryApp({ repositoryDialect: 'FEDORA_4' });
  v5 = await buildRepositoryApp({ repositoryDialect: 'FEDORA_5' });
});
afterAll(async () => {
  await v4.close();
  await v5.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const TITLE = `${NS.dcterms}title`;
const XSD_DATETIME = 'http://www.w3.org/2001/XMLSchema#dateTime';

function retitle(t: TestApp, path: string, title: string) {
  return repo(
    t.app,
    'PATCH',
    path,
    sparql(`DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "${title}" }`),
  );
}

async function label(t: TestApp, path: string, slug: string): Promise<string> {
  const response = await repo(t.app, 'POST', `${path}/fcr:versions`, { headers: { slug } });
  if (response.statusCode !== 201)
    throw new Error(`version ${slug}: ${response.statusCode} ${response.body}`);
  return String(response.headers.location);
}

/** The labels the version list names, each checked to have its IRI under fcr:versions and a created date. */
async function listedLabels(t: TestApp, path: string): Promise<string[]> {
  const response = await repo(t.app, 'GET', `${path}/fcr:versions`);
  expect(response.statusCode).toBe(200);
  const graph = graphOf(response);
  const labels: string[] = [];
  for (const version of graph.getObjects(`${BASE}${path}`, `${NS.fedora}hasVersion`, null)) {
    const [text] = graph.getObjects(version, `${NS.fedora}hasVersionLabel`, null).map((o) => o.value);
    if (text === undefined) throw new Error(`${version.value} has no label`);
    expect(version.value).toBe(`${BASE}${path}/fcr:versions/${encodeURIComponent(text)}`);
    const created = graph.getObjects(version, `${NS.fedora}created`, null);
    expect(created).toHaveLength(1);
    expect(created[0]?.termType === 'Literal' ? created[0].datatype.value : '').toBe(XSD_DATETIME);
    labels.push(text);
  }
  return labels.sort();
}

async function beginTx(t: TestApp): Promise<string> {
  const response = await repo(t.app, 'POST', '/fcr:tx');
  expect(response.statusCode).toBe(201);
  const location = String(response.headers.location);
  expect(location).toMatch(new RegExp(`^${BASE}/tx:[0-9a-f-]+$`));
  return location;
}

describe(`FEDORA_4 labelled versions (${testDialect})`, () => {
  it('POST fcr:versions with a Slug is 201 at fcr:versions/<label>; the list names it with its label and date', async () => {
    await createContainer(v4.app, '/l4a', `<> <${TITLE}> "one" .`);
    const created = await repo(v4.app, 'POST', '/l4a/fcr:versions', { headers: { slug: 'first draft' } });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe(`${BASE}/l4a/fcr:versions/first%20draft`);
    expect(created.headers['memento-datetime']).toBeUndefined();
    // Fedora 4 labels versions, it does not name them by the second: two at once are fine.
    await label(v4, '/l4a', 'second');
    expect(await listedLabels(v4, '/l4a')).toEqual(['first draft', 'second']);
  });

  it('GET fcr:versions/<label> is the version content, without Memento headers; 404 for an unknown label', async () => {
    await createContainer(v4.app, '/l4get', `<> <${TITLE}> "then" .`);
    const iri = await label(v4, '/l4get', 'v-then');
    await retitle(v4, '/l4get', 'now');
    const version = await repo(v4.app, 'GET', iri);
    expect(version.statusCode).toBe(200);
    expect(objects(version, `${BASE}/l4get`, TITLE)).toEqual(['then']);
    expect(version.headers['memento-datetime']).toBeUndefined();
    expect(String(version.headers.link ?? '')).not.toContain('mementoweb.org');
    expect((await repo(v4.app, 'GET', '/l4get/fcr:versions/nope')).statusCode).toBe(404);
    expect(
      (await repo(v4.app, 'GET', '/l4get/fcr:versions', { headers: { accept: 'application/n-triples' } }))
        .headers['content-type'],
    ).toMatch(/^application\/n-triples/);
  });

  it('GET fcr:versions of a resource without versions is 404', async () => {
    await createContainer(v4.app, '/l4none');
    expect((await repo(v4.app, 'GET', '/l4none/fcr:versions')).statusCode).toBe(404);
  });

  it('refuses a missing or blank Slug ("Specify label") and labels Fedora 4 does not allow (400)', async () => {
    await createContainer(v4.app, '/l4bad');
    const missing = await repo(v4.app, 'POST', '/l4bad/fcr:versions');
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Specify label');
    expect((await repo(v4.app, 'POST', '/l4bad/fcr:versions', { headers: { slug: '  ' } })).statusCode).toBe(
      400,
    );
    for (const bad of '~#@*+%{}<>[]|"^'
      .split('')
      .map((c) => `a${c}b`)
      .concat(['12345', 'draft 2', 'x/y', 'fcr:x'])) {
      const response = await repo(v4.app, 'POST', '/l4bad/fcr:versions', { headers: { slug: bad } });
      expect(response.statusCode, bad).toBe(400);
    }
    // Digits are fine after anything but whitespace.
    expect(
      (await repo(v4.app, 'POST', '/l4bad/fcr:versions', { headers: { slug: 'draft2' } })).statusCode,
    ).toBe(201);
    expect(await listedLabels(v4, '/l4bad')).toEqual(['draft2']);
  });

  it('a label already used on the resource is 409; the same label on another resource is fine', async () => {
    await createContainer(v4.app, '/l4dup');
    await createContainer(v4.app, '/l4dup2');
    await label(v4, '/l4dup', 'published');
    const again = await repo(v4.app, 'POST', '/l4dup/fcr:versions', { headers: { slug: 'published' } });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already assigned to another version');
    await label(v4, '/l4dup2', 'published');
  });

  it('PATCH fcr:versions/<label> reverts the triples (204) after snapshotting the current state; children stay', async () => {
    await createContainer(v4.app, '/l4rev', `<> <${TITLE}> "original" .`);
    await label(v4, '/l4rev', 'orig');
    await retitle(v4, '/l4rev', 'edited');
    await createContainer(v4.app, '/l4rev/child');
    const reverted = await repo(v4.app, 'PATCH', '/l4rev/fcr:versions/orig');
    expect(reverted.statusCode).toBe(204);
    const now = await repo(v4.app, 'GET', '/l4rev');
    expect(objects(now, `${BASE}/l4rev`, TITLE)).toEqual(['original']);
    expect(objects(now, `${BASE}/l4rev`, `${NS.ldp}contains`)).toEqual([`${BASE}/l4rev/child`]);
    expect(await listedLabels(v4, '/l4rev')).toEqual(['auto-snapshot-before-orig', 'orig']);
    // The snapshot undoes the revert.
    const snapshot = await repo(v4.app, 'GET', '/l4rev/fcr:versions/auto-snapshot-before-orig');
    expect(objects(snapshot, `${BASE}/l4rev`, TITLE)).toEqual(['edited']);
    expect((await repo(v4.app, 'PATCH', '/l4rev/fcr:versions/auto-snapshot-before-orig')).statusCode).toBe(
      204,
    );
    expect(objects(await repo(v4.app, 'GET', '/l4rev'), `${BASE}/l4rev`, TITLE)).toEqual(['edited']);
    // Reverting to the same label again keeps both snapshots.
    expect((await repo(v4.app, 'PATCH', '/l4rev/fcr:versions/orig')).statusCode).toBe(204);
    expect(await listedLabels(v4, '/l4rev')).toEqual([
      'auto-snapshot-before-auto-snapshot-before-orig',
      'auto-snapshot-before-orig',
      'auto-snapshot-before-orig-2',
      'orig',
    ]);
  });

  it('a binary version serves its bytes, and reverting to it restores them', async () => {
    const put = (body: string) =>
      repo(v4.app, 'PUT', '/l4bin', { headers: { 'content-type': 'text/plain' }, body });
    expect((await put('first bytes')).statusCode).toBe(201);
    const iri = await label(v4, '/l4bin', 'b1');
    expect((await put('second bytes')).statusCode).toBe(204);
    const version = await repo(v4.app, 'GET', iri);
    expect(version.statusCode).toBe(200);
    expect(version.body).toBe('first bytes');
    expect(version.headers['memento-datetime']).toBeUndefined();
    expect(String(version.headers.link ?? '')).not.toContain('mementoweb.org');
    expect((await repo(v4.app, 'PATCH', iri)).statusCode).toBe(204);
    expect((await repo(v4.app, 'GET', '/l4bin')).body).toBe('first bytes');
    expect((await repo(v4.app, 'GET', '/l4bin/fcr:versions/auto-snapshot-before-b1')).body).toBe(
      'second bytes',
    );
  });

  it('DELETE fcr:versions/<label> removes an older version (204) but not the current one (400)', async () => {
    await createContainer(v4.app, '/l4del');
    await label(v4, '/l4del', 'older');
    await label(v4, '/l4del', 'newer');
    const current = await repo(v4.app, 'DELETE', '/l4del/fcr:versions/newer');
    expect(current.statusCode).toBe(400);
    expect(current.body).toContain('Cannot remove current version');
    expect((await repo(v4.app, 'DELETE', '/l4del/fcr:versions/older')).statusCode).toBe(204);
    expect((await repo(v4.app, 'GET', '/l4del/fcr:versions/older')).statusCode).toBe(404);
    expect(await listedLabels(v4, '/l4del')).toEqual(['newer']);
  });

  it('versions can be made and reverted to inside a transaction (tx in the path)', async () => {
    await createContainer(v4.app, '/l4tx', `<> <${TITLE}> "before" .`);
    const tx = await beginTx(v4);
    const created = await repo(v4.app, 'POST', `${tx}/l4tx/fcr:versions`, { headers: { slug: 'in-tx' } });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe(`${tx}/l4tx/fcr:versions/in-tx`);
    await retitle(v4, `${tx}/l4tx`, 'inside');
    expect((await repo(v4.app, 'PATCH', `${tx}/l4tx/fcr:versions/in-tx`)).statusCode).toBe(204);
    expect(objects(await repo(v4.app, 'GET', `${tx}/l4tx`), `${tx}/l4tx`, TITLE)).toEqual(['before']);
    expect((await repo(v4.app, 'POST', `${tx}/fcr:tx/fcr:rollback`)).statusCode).toBe(204);
  });

  it('Accept-Datetime means nothing to Fedora 4: the resource itself is served', async () => {
    await createContainer(v4.app, '/l4ad', `<> <${TITLE}> "live" .`);
    const response = await repo(v4.app, 'GET', '/l4ad', {
      headers: { 'accept-datetime': 'Sat, 01 Jan 2000 00:00:00 GMT' },
    });
    expect(response.statusCode).toBe(200);
    expect(objects(response, `${BASE}/l4ad`, TITLE)).toEqual(['live']);
  });
});

describe(`FEDORA_5 Memento versions (${testDialect})`, () => {
  it('POST fcr:versions is 201 with a timestamp memento; a Slug is 400 ("no longer supported")', async () => {
    await createContainer(v5.app, '/m5a');
    const created = await repo(v5.app, 'POST', '/m5a/fcr:versions');
    expect(created.statusCode).toBe(201);
    expect(String(created.headers.location)).toMatch(new RegExp(`^${BASE}/m5a/fcr:versions/\\d{14}$`));
    expect(created.headers['memento-datetime']).toBeDefined();
    const memento = await repo(v5.app, 'GET', String(created.headers.location));
    expect(memento.headers['memento-datetime']).toBeDefined();
    const slugged = await repo(v5.app, 'POST', '/m5a/fcr:versions', { headers: { slug: 'label' } });
    expect(slugged.statusCode).toBe(400);
    expect(slugged.body).toContain('no longer supported');
  });

  it('two versions of one resource in the same second: the second is 409', async () => {
    await createContainer(v5.app, '/m5same');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-05-06T07:08:09.100Z'));
    expect((await repo(v5.app, 'POST', '/m5same/fcr:versions')).statusCode).toBe(201);
    vi.setSystemTime(new Date('2031-05-06T07:08:09.900Z'));
    expect((await repo(v5.app, 'POST', '/m5same/fcr:versions')).statusCode).toBe(409);
    vi.setSystemTime(new Date('2031-05-06T07:08:10.000Z'));
    expect((await repo(v5.app, 'POST', '/m5same/fcr:versions')).statusCode).toBe(201);
  });

  it('DELETE of a memento is 204, and versions can be made and deleted inside a transaction', async () => {
    await createContainer(v5.app, '/m5del');
    const memento = String((await repo(v5.app, 'POST', '/m5del/fcr:versions')).headers.location);
    expect((await repo(v5.app, 'DELETE', memento)).statusCode).toBe(204);
    expect((await repo(v5.app, 'GET', memento)).statusCode).toBe(404);
    const tx = await beginTx(v5);
    const inTx = await repo(v5.app, 'POST', `${tx}/m5del/fcr:versions`);
    expect(inTx.statusCode).toBe(201);
    const location = String(inTx.headers.location);
    expect(location.startsWith(`${tx}/m5del/fcr:versions/`)).toBe(true);
    expect((await repo(v5.app, 'DELETE', location)).statusCode).toBe(204);
    expect((await repo(v5.app, 'POST', `${tx}/fcr:tx/fcr:rollback`)).statusCode).toBe(204);
  });
});
