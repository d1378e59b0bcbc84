import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * QUERY and MEMBERS scopes through the real app (DECISIONS.md §12): resources written to the embedded
 * repository through /rest reach the view's index through the search feed, a job's scope is what search
 * finds, and apply writes exactly what the preview listed.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const PCDM = 'http://pcdm.org/models#';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

interface Job {
  id: number;
  kind: string;
  state: string;
  scope: string;
  query: string | null;
  contextUri: string;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}
interface Change {
  contextUri: string;
  error: string | null;
}

let t: TestApp;
let view: EmbeddedView;
let other: { viewId: number; prefix: string; rootUri: string };
let authorization: string;
let retitle: number;
let curator: { id: number; token: string };
let otherCurator: { id: number; token: string };
/** Paths below the view's root → IRIs. */
const iri: Record<string, string> = {};

function ok(response: { body: string; json: () => unknown }): Record<string, unknown> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload;
}

/** PUTs a resource through /rest (as any repository client would), Turtle about itself. */
async function put(path: string, turtle: string, contentType = 'text/turtle'): Promise<string> {
  const uri = `${view.rootUri}${path}`;
  const response = await fetch(uri, {
    method: 'PUT',
    headers: { authorization, 'content-type': contentType },
    body: turtle,
  });
  expect(response.status, `PUT ${path}: ${await response.clone().text()}`).toBe(201);
  iri[path] = uri;
  return uri;
}
const titled = (path: string, title: string, more = '') => put(path, `<> <${TITLE}> "${title}"@en ${more}.`);

/** The IRIs a search of the view finds (every page). */
async function searched(
  prefix: string,
  contextUri: string,
  query: string,
  token?: string,
): Promise<string[]> {
  const results = ok(
    await sendJson(
      t.app,
      'GET',
      `${prefix}/search?${q(contextUri)}&q=${encodeURIComponent(query)}&limit=100&sort=name`,
      undefined,
      { token },
    ),
  ).SearchResults as { total: number; hits: { contextUri: string }[] };
  expect(results.total).toBeLessThanOrEqual(100);
  return results.hits.map((hit) => hit.contextUri).sort();
}

/** Waits until the index (fed from the repository's writes) finds exactly `expected`. */
async function searchable(contextUri: string, query: string, expected: readonly string[]): Promise<void> {
  const want = [...expected].sort();
  let found: string[] = [];
  for (let i = 0; i < 200; i++) {
    found = await searched(view.prefix, contextUri, query);
    if (JSON.stringify(found) === JSON.stringify(want)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(found).toEqual(want);
}

async function until(id: number, states: readonly string[]): Promise<Job> {
  for (let i = 0; i < 400; i++) {
    const job = ok(await sendJson(t.app, 'GET', `/curation-job/${id}`)).CurationJob as Job;
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

async function start(job: Record<string, unknown>, token?: string): Promise<Job> {
  return ok(
    await sendJson(
      t.app,
      'POST',
      '/curation-job',
      { repositoryViewId: view.viewId, kind: 'MAPPING', operators: [retitle], ...job },
      { token },
    ),
  ).CurationJob as Job;
}

async function changed(id: number): Promise<string[]> {
  const changes = ok(await sendJson(t.app, 'GET', `/curation-job/${id}/changes?limit=1000`))[
    'ArrayList<ResourceChange>'
  ] as Change[];
  expect(changes.filter((change) => change.error !== null)).toEqual([]);
  return changes.map((change) => change.contextUri).sort();
}

async function titleOf(uri: string): Promise<string[]> {
  const context = ok(await sendJson(t.app, 'GET', `${view.prefix}?${q(uri)}`)).RepositoryViewContext as {
    metadata: { predicate: string; object: string }[];
  };
  return context.metadata.filter((m) => m.predicate === TITLE).map((m) => m.object);
}

async function jobCount(): Promise<number> {
  return (ok(await sendJson(t.app, 'GET', '/curation-job'))['ArrayList<CurationJob>'] as Job[]).length;
}

beforeAll(async () => {
  t = await buildTestApp();
  view = await listenWithEmbeddedView(t, 'Job scopes');
  const credentials = resolveRepositoryCredentials(t.config);
  authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  curator = await createUser(t, 'ROLE_CURATOR');
  otherCurator = await createUser(t, 'ROLE_CURATOR');
  const viewBody = ok(await sendJson(t.app, 'GET', `/repository-view/${view.viewId}`))
    .RepositoryView as Record<string, unknown>;
  ok(
    await sendJson(t.app, 'PUT', '/repository-view', {
      ...viewBody,
      password: null,
      curators: [{ id: curator.id }],
    }),
  );
  retitle = (
    ok(
      await sendJson(t.app, 'POST', '/operators', {
        type: 'REGEX_REPLACE_OP',
        name: 'letter → Letter',
        field: 'dcterms:title',
        regex: 'letter',
        value: 'Letter',
      }),
    ).RegexReplaceOp as { id: number }
  ).id;

  await titled('letters', 'Letters');
  await titled('letters/a1', 'Austin letter one');
  await titled('letters/a2', 'Austin letter two');
  await titled('letters/d1', 'Dallas letter');
  await titled('letters/box', 'A box');
  await titled('letters/box/a3', 'Austin letter three');
  await put('letters/scan.txt', 'a scanned page', 'text/plain');
  await titled('elsewhere', 'Elsewhere');
  await titled('elsewhere/a4', 'Austin letter kept elsewhere');
  await put('elsewhere/scan.txt', 'another page', 'text/plain');
  await titled('elsewhere/m1', 'Member one letter');
  await titled('elsewhere/nm', 'Not a member letter');
  await titled('collection', 'A collection');
  // Members named both ways, none of them contained in the collection; its child is not a member.
  await titled('elsewhere/m2', 'Member two letter', `; <${PCDM}memberOf> <${iri.collection}> `);
  await titled('elsewhere/m3', 'Member three letter', `; <${PCDM}memberOf> <${iri.collection}> `);
  const hasMember = await fetch(iri.collection!, {
    method: 'PATCH',
    headers: { authorization, 'content-type': 'application/sparql-update' },
    body: `INSERT DATA { <> <${PCDM}hasMember> <${iri['elsewhere/m1']}>, <${iri['elsewhere/m3']}> . }`,
  });
  expect(hasMember.status).toBe(204);
  await titled('collection/child', 'Contained letter, not a member');

  // A second view on the same repository, below `elsewhere/`, curated by someone else.
  const schemas = (ok(await sendJson(t.app, 'GET', '/schema'))['ArrayList<Schema>'] as { id: number }[]).map(
    ({ id }) => ({ id }),
  );
  const otherView = ok(
    await sendJson(t.app, 'POST', '/repository-view', {
      type: 'FEDORA',
      name: 'Elsewhere only',
      rootUri: `${view.rootUri}elsewhere/`,
      username: credentials.username,
      password: credentials.password,
      schemas,
      curators: [{ id: otherCurator.id }],
    }),
  ).RepositoryView as { id: number };
  other = {
    viewId: otherView.id,
    prefix: `/repository-view-context/FEDORA/${otherView.id}`,
    rootUri: `${view.rootUri}elsewhere/`,
  };

  // Everything written is searchable (the feed), before any job looks.
  const all = (...paths: string[]) => paths.map((path) => iri[path]!);
  await searchable(view.rootUri, 'austin', all('letters/a1', 'letters/a2', 'letters/box/a3', 'elsewhere/a4'));
  await searchable(
    view.rootUri,
    'member',
    all('elsewhere/m1', 'elsewhere/m2', 'elsewhere/m3', 'elsewhere/nm', 'collection/child'),
  );
  await searchable(view.rootUri, 'binary:true', all('letters/scan.txt', 'elsewhere/scan.txt'));
});
afterAll(async () => {
  await t.close();
});

describe('QUERY scope', () => {
  it('previews and applies exactly the hits of the same search, then undoes them', async () => {
    const hits = await searched(view.prefix, iri.letters!, 'austin');
    expect(hits).toEqual([iri['letters/a1'], iri['letters/a2'], iri['letters/box/a3']]);
    const created = await start({ contextUri: iri.letters, scope: 'QUERY', query: 'austin' }, curator.token);
    expect(created).toMatchObject({ scope: 'QUERY', query: 'austin', kind: 'MAPPING' });
    const job = await until(created.id, ['PREVIEWED', 'FAILED']);
    expect(job).toMatchObject({
      state: 'PREVIEWED',
      query: 'austin',
      message: '3 of 3 resources change',
      progress: { total: 3, done: 3, changed: 3, failed: 0 },
    });
    expect(await changed(job.id)).toEqual(hits);
    // A preview writes nothing.
    expect(await titleOf(iri['letters/a1']!)).toEqual(['"Austin letter one"@en']);

    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`, undefined, { token: curator.token }));
    expect(await until(job.id, ['APPLIED', 'FAILED'])).toMatchObject({
      state: 'APPLIED',
      message: '3 resources written',
    });
    expect(await titleOf(iri['letters/box/a3']!)).toEqual(['"Austin Letter three"@en']);
    // Not hits: a match outside the context, a resource of the context the query does not match.
    expect(await titleOf(iri['elsewhere/a4']!)).toEqual(['"Austin letter kept elsewhere"@en']);
    expect(await titleOf(iri['letters/d1']!)).toEqual(['"Dallas letter"@en']);

    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`));
    expect(await until(job.id, ['UNDONE', 'FAILED'])).toMatchObject({ state: 'UNDONE' });
    expect(await titleOf(iri['letters/box/a3']!)).toEqual(['"Austin letter three"@en']);
  });

  it('apply touches only what the preview listed: a resource matching the query since is left alone', async () => {
    const job = await until((await start({ contextUri: iri.letters, scope: 'QUERY', query: 'austin' })).id, [
      'PREVIEWED',
      'FAILED',
    ]);
    expect(job.progress.total).toBe(3);
    const late = await titled('letters/a5', 'Austin letter five');
    await searchable(iri.letters!, 'austin', [
      iri['letters/a1']!,
      iri['letters/a2']!,
      iri['letters/box/a3']!,
      late,
    ]);
    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`));
    expect(await until(job.id, ['APPLIED', 'FAILED'])).toMatchObject({
      state: 'APPLIED',
      message: '3 resources written',
    });
    expect(await titleOf(late)).toEqual(['"Austin letter five"@en']);
    expect(await titleOf(iri['letters/a2']!)).toEqual(['"Austin Letter two"@en']);
    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`));
    await until(job.id, ['UNDONE']);
    const del = await fetch(late, { method: 'DELETE', headers: { authorization } });
    expect(del.status).toBe(204);
    await searchable(iri.letters!, 'austin', [
      iri['letters/a1']!,
      iri['letters/a2']!,
      iri['letters/box/a3']!,
    ]);
  });

  it('FIXITY over a QUERY scope checks the binaries among the hits', async () => {
    const hits = await searched(view.prefix, iri.letters!, 'binary:true');
    expect(hits).toEqual([iri['letters/scan.txt']]);
    const created = await start({
      contextUri: iri.letters,
      scope: 'QUERY',
      query: 'binary:true',
      kind: 'FIXITY',
      operators: [],
    });
    const job = await until(created.id, ['COMPLETED', 'FAILED']);
    expect(job).toMatchObject({
      state: 'COMPLETED',
      message: '0 of 1 binary failed',
      progress: { total: 1, done: 1, failed: 0 },
    });
    const report = ok(await sendJson(t.app, 'GET', `/curation-job/${job.id}/report`))[
      'ArrayList<FixityResult>'
    ] as { contextUri: string; status: string }[];
    expect(report).toEqual([
      expect.objectContaining({ contextUri: iri['letters/scan.txt'], status: 'SUCCESS' }),
    ]);
  });

  it('a query that matches nothing is a job with nothing to do, which says so', async () => {
    const job = await until((await start({ contextUri: iri.letters, scope: 'QUERY', query: 'houston' })).id, [
      'PREVIEWED',
      'FAILED',
    ]);
    expect(job).toMatchObject({
      state: 'PREVIEWED',
      progress: { total: 0, done: 0, changed: 0, failed: 0 },
      message: `0 of 0 resources change; the query matched nothing within ${iri.letters}`,
    });
  });
});

describe('MEMBERS scope', () => {
  it('works on the members a collection names (pcdm:hasMember) and those naming it (pcdm:memberOf), not its children', async () => {
    const created = await start({ contextUri: iri.collection, scope: 'MEMBERS' }, curator.token);
    expect(created).toMatchObject({ scope: 'MEMBERS', query: null });
    const job = await until(created.id, ['PREVIEWED', 'FAILED']);
    expect(job).toMatchObject({ state: 'PREVIEWED', progress: { total: 3, done: 3, changed: 3, failed: 0 } });
    expect(await changed(job.id)).toEqual(
      [iri['elsewhere/m1'], iri['elsewhere/m2'], iri['elsewhere/m3']].sort(),
    );
  });

  it('a resource without members is a job with nothing to do: it completes with a total of 0 and says why', async () => {
    const mapping = await until((await start({ contextUri: iri.letters, scope: 'MEMBERS' })).id, [
      'PREVIEWED',
      'FAILED',
    ]);
    expect(mapping).toMatchObject({
      state: 'PREVIEWED',
      progress: { total: 0, done: 0, changed: 0, failed: 0 },
      message: `0 of 0 resources change; ${iri.letters} has no members (pcdm:hasMember, pcdm:memberOf)`,
    });
    const fixity = await until(
      (await start({ contextUri: iri.letters, scope: 'MEMBERS', kind: 'FIXITY', operators: [] })).id,
      ['COMPLETED', 'FAILED'],
    );
    expect(fixity).toMatchObject({ state: 'COMPLETED', progress: { total: 0 } });
  });
});

describe('INDEX over listed scopes', () => {
  it('re-indexes exactly the hits (QUERY) or the members (MEMBERS) and removes nothing else from the index', async () => {
    const before = await searched(view.prefix, view.rootUri, 'letter');
    expect(before.length).toBeGreaterThan(8);
    const hits = await until(
      (
        await start({
          contextUri: iri.letters,
          scope: 'QUERY',
          query: 'austin',
          kind: 'INDEX',
          operators: [],
          dryRun: false,
        })
      ).id,
      ['COMPLETED', 'FAILED'],
    );
    expect(hits).toMatchObject({
      state: 'COMPLETED',
      message: '3 of 3 resources indexed',
      progress: { total: 3, done: 3, changed: 3, failed: 0 },
    });
    const members = await until(
      (
        await start({
          contextUri: iri.collection,
          scope: 'MEMBERS',
          kind: 'INDEX',
          operators: [],
          dryRun: false,
        })
      ).id,
      ['COMPLETED', 'FAILED'],
    );
    expect(members).toMatchObject({ state: 'COMPLETED', message: '3 of 3 resources indexed' });
    // A list is not a subtree: nothing it did not list is swept from the index.
    expect(await searched(view.prefix, view.rootUri, 'letter')).toEqual(before);
    const none = await until(
      (
        await start({
          contextUri: iri.letters,
          scope: 'MEMBERS',
          kind: 'INDEX',
          operators: [],
          dryRun: false,
        })
      ).id,
      ['COMPLETED', 'FAILED'],
    );
    expect(none.message).toBe(
      `0 of 0 resources indexed; ${iri.letters} has no members (pcdm:hasMember, pcdm:memberOf)`,
    );
  });
});

describe('POST /curation-job with a listed scope: bad input is INVALID and creates no job', () => {
  const refused = async (job: Record<string, unknown>, token?: string) => {
    const before = await jobCount();
    const response = await sendJson(
      t.app,
      'POST',
      '/curation-job',
      {
        repositoryViewId: view.viewId,
        contextUri: iri.letters,
        kind: 'MAPPING',
        operators: [retitle],
        ...job,
      },
      { token },
    );
    const envelope = body(response);
    expect(envelope.meta.status, response.body).toBe('INVALID');
    expect(await jobCount()).toBe(before);
    return (envelope.payload.ValidationResults as { messages: Record<string, Record<string, string>> })
      .messages;
  };

  it('QUERY without a query, or with a blank one', async () => {
    const required = {
      query: {
        required: 'A QUERY-scoped curation job requires a query (SUBTREE is every resource below contextUri)',
      },
    };
    expect(await refused({ scope: 'QUERY' })).toEqual(required);
    expect(await refused({ scope: 'QUERY', query: null })).toEqual(required);
    expect(await refused({ scope: 'QUERY', query: '   ' })).toEqual(required);
  });

  it('a query with any other scope', async () => {
    for (const scope of ['RESOURCE', 'CHILDREN', 'SUBTREE', 'MEMBERS'])
      expect(await refused({ scope, query: 'austin' })).toEqual({
        query: { type: `Only a QUERY-scoped curation job takes a query, not a ${scope}-scoped one` },
      });
  });

  it('a malformed query, with the position of its problem, as search tells it', async () => {
    const unbalanced = await refused({ scope: 'QUERY', query: 'austin "letter' });
    const fromSearch = body(
      await sendJson(t.app, 'GET', `${view.prefix}/search?q=${encodeURIComponent('austin "letter')}`),
    ).payload.ValidationResults as { messages: Record<string, Record<string, string>> };
    expect(unbalanced).toEqual({ query: fromSearch.messages.q });
    expect(unbalanced.query?.position).toBe('7');
    expect(unbalanced.query?.pattern).toMatch(/\(at position 7\)$/);
    const unknownPrefix = await refused({ scope: 'QUERY', query: 'austin nope:title:x' });
    expect(unknownPrefix.query?.position).toBe('7');
    expect(unknownPrefix.query?.pattern).toMatch(/nope/);
    expect((await refused({ scope: 'QUERY', query: 'dcterms:title:/(/' })).query?.pattern).toMatch(
      /position/,
    );
    expect(await refused({ scope: 'QUERY', query: 'x'.repeat(2001) })).toEqual({
      query: { maxlength: "A curation job's query must be at most 2000 characters long" },
    });
    expect(await refused({ scope: 'QUERY', query: 42 })).toEqual({
      query: { type: "A curation job's query must be a string" },
    });
  });

  it('every problem at once: a malformed query beside unknown operators', async () => {
    expect(await refused({ scope: 'QUERY', query: '"open', operators: [987654] })).toEqual({
      operators: { exists: 'Operator with id 987654 does not exist' },
      query: expect.objectContaining({ position: '0' }) as Record<string, string>,
    });
  });
});

describe('listed scopes and permissions (attack)', () => {
  it('a curator of another view can neither start a job on this one nor reach its resources through a query', async () => {
    for (const scope of ['QUERY', 'MEMBERS']) {
      const before = await jobCount();
      const response = body(
        await sendJson(
          t.app,
          'POST',
          '/curation-job',
          {
            repositoryViewId: view.viewId,
            contextUri: iri.collection,
            scope,
            ...(scope === 'QUERY' && { query: 'austin' }),
            kind: 'MAPPING',
            operators: [retitle],
          },
          { token: otherCurator.token },
        ),
      );
      expect(response.meta.status).toBe('INVALID');
      expect(response.payload.ValidationResults).toMatchObject({
        messages: { repositoryViewId: { exists: `RepositoryView with id ${view.viewId} does not exist` } },
      });
      expect(await jobCount()).toBe(before);
    }
    // Their own view's context must lie inside their view's root.
    const outside = body(
      await sendJson(
        t.app,
        'POST',
        '/curation-job',
        {
          repositoryViewId: other.viewId,
          contextUri: iri.letters,
          scope: 'QUERY',
          query: 'austin',
          kind: 'MAPPING',
          operators: [retitle],
        },
        { token: otherCurator.token },
      ),
    );
    expect(outside.meta.status).toBe('INVALID');
    expect(outside.payload.ValidationResults).toMatchObject({
      messages: { contextUri: { pattern: expect.stringMatching(/must lie under/) as string } },
    });
    // Over their own view's root, a query that matches this view's letters finds only their view's resources.
    const mine = ok(
      await sendJson(
        t.app,
        'POST',
        '/curation-job',
        {
          repositoryViewId: other.viewId,
          contextUri: '',
          scope: 'QUERY',
          query: 'austin',
          kind: 'MAPPING',
          operators: [retitle],
        },
        { token: otherCurator.token },
      ),
    ).CurationJob as Job;
    const job = await until(mine.id, ['PREVIEWED', 'FAILED']);
    expect(job.state).toBe('PREVIEWED');
    expect(await changed(job.id)).toEqual([iri['elsewhere/a4']]);
    // And a MEMBERS job on their view over a collection of this view is refused as outside the root.
    const members = body(
      await sendJson(
        t.app,
        'POST',
        '/curation-job',
        {
          repositoryViewId: other.viewId,
          contextUri: iri.collection,
          scope: 'MEMBERS',
          kind: 'MAPPING',
          operators: [retitle],
        },
        { token: otherCurator.token },
      ),
    );
    expect(members.meta.status).toBe('INVALID');
  });
});
