import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import { WITHOUT_SEARCH_FEED, type TestApp } from '../../test/support/test-app.js';
import { buildRepositoryApp, createContainer, repo, turtle } from '../../test/support/repository-client.js';
import { TITLE } from '../../test/support/embedded-repository/conformance.js';
import { isBackgroundStatement } from '../../test/support/background-statements.js';

/**
 * Writers that meet on one path (issue 27, finding 1): they are served one after another, each deciding
 * create or replace on the state it finds in its turn, so exactly one creates (201) and the rest replace
 * (204) with no retry storm; a stale If-Match or If-None-Match: * is a 412 in the writer's turn. Work is
 * counted in SQL statements, never in time: a writer that keeps meeting conflicts re-runs its statements.
 */
let t: TestApp;
let queries = 0;
beforeAll(async () => {
  t = await buildRepositoryApp(WITHOUT_SEARCH_FEED, {
    onQuery: (sql) => {
      if (!isBackgroundStatement(sql)) queries += 1;
    },
  });
  await createContainer(t.app, '/together');
});
afterAll(async () => {
  await t.close();
});

const WRITERS = 16;

/** A 64 KiB body, different for each writer. */
const binaryBody = (i: number) => Buffer.alloc(64 * 1024, i + 1);
const putBinary = (path: string, i: number, headers: Record<string, string> = {}) =>
  repo(t.app, 'PUT', path, {
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body: binaryBody(i),
  });
const putTurtle = (path: string, i: number, headers: Record<string, string> = {}) =>
  repo(t.app, 'PUT', path, turtle(`<> <${TITLE}> "writer ${i}" .`, headers));

/** Statements `run` takes. */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const before = queries;
  const result = await run();
  return { result, statements: queries - before };
}

/** Statements of WRITERS PUTs to a new path sent one after another (the first creates). */
async function serialStatements(put: (path: string, i: number) => Promise<{ statusCode: number }>) {
  const path = `/together/serial-${Math.random().toString(36).slice(2)}`;
  const { statements } = await counted(async () => {
    for (let i = 0; i < WRITERS; i++) await put(path, i);
  });
  return statements;
}

const statuses = (answers: readonly { statusCode: number }[]) =>
  answers.map((a) => a.statusCode).sort((a, b) => a - b);

describe(`concurrent writers of one path (${testDialect})`, () => {
  it('16 PUTs of one new binary (64 KiB each): one 201, fifteen 204, one body kept, about the statements of serial writes', async () => {
    const serial = await serialStatements(putBinary);
    const { result: answers, statements } = await counted(() =>
      Promise.all(Array.from({ length: WRITERS }, (_, i) => putBinary('/together/binary', i))),
    );
    expect(statuses(answers)).toEqual([201, ...Array.from({ length: WRITERS - 1 }, () => 204)]);
    // Each writer after the first reads three times more than a serial one: its first look saw a new path
    // (the tombstone and the parent were looked up too), and it reads the resource again in its turn. A
    // writer that started over would repeat all its statements (thousands more before the fix).
    expect(statements).toBeLessThanOrEqual(serial + 3 * WRITERS);
    const kept = await repo(t.app, 'GET', '/together/binary');
    expect(kept.statusCode).toBe(200);
    expect(Array.from({ length: WRITERS }, (_, i) => binaryBody(i).equals(kept.rawPayload))).toContain(true);
  });

  it('16 PUTs of one new RDF container: one 201, fifteen 204, one body kept, about the statements of serial writes', async () => {
    const serial = await serialStatements(putTurtle);
    const { result: answers, statements } = await counted(() =>
      Promise.all(Array.from({ length: WRITERS }, (_, i) => putTurtle('/together/rdf', i))),
    );
    expect(statuses(answers)).toEqual([201, ...Array.from({ length: WRITERS - 1 }, () => 204)]);
    expect(statements).toBeLessThanOrEqual(serial + 3 * WRITERS);
    const kept = await repo(t.app, 'GET', '/together/rdf', { headers: { accept: 'application/n-triples' } });
    const titles = kept.body.split('\n').filter((line) => line.includes(TITLE));
    expect(titles).toHaveLength(1);
    expect(titles[0]).toMatch(/"writer \d+"/);
  });

  it('If-Match with the ETag all of them read: one 204, the rest 412 at once (no lost update)', async () => {
    const first = await putBinary('/together/matched', 100);
    expect(first.statusCode).toBe(201);
    const etag = String(first.headers.etag);
    const { result: answers, statements } = await counted(() =>
      Promise.all(
        Array.from({ length: WRITERS }, (_, i) => putBinary('/together/matched', i, { 'if-match': etag })),
      ),
    );
    expect(statuses(answers)).toEqual([204, ...Array.from({ length: WRITERS - 1 }, () => 412)]);
    // 412s in the writer's turn, after one read each; none retries.
    const serial = await serialStatements(putBinary);
    expect(statements).toBeLessThanOrEqual(serial + 3 * WRITERS);
    // A stale ETag sent alone: 412 before anything is written.
    expect((await putBinary('/together/matched', 1, { 'if-match': etag })).statusCode).toBe(412);
    const after = await repo(t.app, 'GET', '/together/matched');
    expect(after.headers.etag).not.toBe(etag);
  });

  it('If-None-Match: * on one new path: one 201, the rest 412 in their turn', async () => {
    const answers = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        putTurtle('/together/only-once', i, { 'if-none-match': '*' }),
      ),
    );
    expect(statuses(answers)).toEqual([201, ...Array.from({ length: WRITERS - 1 }, () => 412)]);
    const kept = await repo(t.app, 'GET', '/together/only-once', {
      headers: { accept: 'application/n-triples' },
    });
    expect(kept.body.split('\n').filter((line) => line.includes(TITLE))).toHaveLength(1);
  });
});
