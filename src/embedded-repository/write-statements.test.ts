import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import { WITHOUT_SEARCH_FEED, type TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  repo,
  sparql,
} from '../../test/support/repository-client.js';
import { TITLE } from '../../test/support/embedded-repository/conformance.js';
import { isBackgroundStatement } from '../../test/support/background-statements.js';

/**
 * SQL statements per write (issue 10): a create and a PATCH are a small fixed number of statements,
 * whatever else the repository holds, so a change that adds one to every write fails here. `begin` and
 * `commit` count as statements. Each write also appends its event to the ledger in its transaction
 * (issue 30): the last event read and the insert, and on PostgreSQL first the ledger's lock.
 */
const LEDGER = testDialect === 'postgres' ? 3 : 2;
let t: TestApp;
let queries = 0;
beforeAll(async () => {
  t = await buildRepositoryApp(WITHOUT_SEARCH_FEED, {
    // Not the audit channel's reads of the ledger: they run on a timer and on the change signal,
    // whenever they fall, and are no statement of the write.
    onQuery: (sql) => {
      if (!isBackgroundStatement(sql)) queries += 1;
    },
  });
});
afterAll(async () => {
  await t.close();
});

async function statements(run: () => Promise<{ statusCode: number }>, status: number): Promise<number> {
  const before = queries;
  const response = await run();
  expect(response.statusCode).toBe(status);
  return queries - before;
}

const postChild = (parent: string, headers: Record<string, string> = {}) =>
  repo(t.app, 'POST', parent, {
    headers: {
      link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"',
      'content-type': 'text/turtle',
      ...headers,
    },
    body: '',
  });

describe(`SQL statements per write (${testDialect})`, () => {
  it('creates a container with a minted name in 6 and the ledger: read the parent; in one transaction the lock and tombstone check (one statement), the parent bump and the insert', async () => {
    await createContainer(t.app, '/stmt-posts');
    for (let i = 0; i < 20; i++) await postChild('/stmt-posts');
    expect(await statements(() => postChild('/stmt-posts'), 201)).toBe(6 + LEDGER);
    // Deeper down, the same.
    await createContainer(t.app, '/stmt-posts/a');
    await createContainer(t.app, '/stmt-posts/a/b');
    expect(await statements(() => postChild('/stmt-posts/a/b'), 201)).toBe(6 + LEDGER);
  });

  it('creates one named by Slug in 8 and the ledger: the name is looked up (taken or tombstoned) first', async () => {
    await createContainer(t.app, '/stmt-slugs');
    expect(await statements(() => postChild('/stmt-slugs', { slug: 'first' }), 201)).toBe(8 + LEDGER);
    // Taken: a minted name instead, with no further statements.
    const taken = await postChild('/stmt-slugs', { slug: 'first' });
    expect(taken.statusCode).toBe(201);
    expect(taken.headers.location).not.toBe(`${BASE}/stmt-slugs/first`);
  });

  it('PATCHes in 6 and the ledger: one read of the resource, then the lock check, the digest, the update', async () => {
    await createContainer(t.app, '/stmt-patched');
    const insert = `INSERT DATA { <${BASE}/stmt-patched> <${TITLE}> "patched" }`;
    expect(await statements(() => repo(t.app, 'PATCH', '/stmt-patched', sparql(insert)), 204)).toBe(
      6 + LEDGER,
    );
    expect(await statements(() => repo(t.app, 'PATCH', '/stmt-patched', sparql(insert)), 204)).toBe(
      6 + LEDGER,
    );
  });

  it('PATCHes sent together take turns: none starts over, each after the first reads once more, none is lost', async () => {
    await createContainer(t.app, '/stmt-together');
    const before = queries;
    const patches = Array.from({ length: 10 }, (_, i) =>
      repo(
        t.app,
        'PATCH',
        '/stmt-together',
        sparql(`INSERT DATA { <${BASE}/stmt-together> <${TITLE}> "p${i}" }`),
      ),
    );
    const answers = await Promise.all(patches);
    expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 10 }, () => 204));
    // 6 each, and at most one more read for each that comes after another: writers that all read one
    // revision would meet conflicts and start over, with more statements each time (114 without turns).
    expect(queries - before).toBeLessThanOrEqual(10 * (6 + LEDGER) + 9);
    const read = await repo(t.app, 'GET', '/stmt-together', { headers: { accept: 'application/n-triples' } });
    for (let i = 0; i < 10; i++) expect(read.body).toContain(`"p${i}"`);
  });
});
