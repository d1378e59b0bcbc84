import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { testDialect } from '../../test/support/test-database.js';
import { body, sendJson, type TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  createContainer,
  objects,
  repo,
  sparql,
} from '../../test/support/repository-client.js';

/**
 * SPARQL Update cannot freeze the process (issue 8, finding 5): a 3-way join over 200 triples took 18 s
 * on the main thread while /health waited. Updates now run in a worker thread with a time limit (the
 * worker is terminated when it passes) and a limit on the solutions of each WHERE; past either the
 * answer is 422 and the resource is unchanged, and the service answers other requests meanwhile.
 */
const P = 'http://example.org/p';
const MAX_SOLUTIONS = 1000;
let t: TestApp;

/** Every value of P joined with every other twice over, filtered so that nothing matches: 8 million rows. */
const SLOW = `INSERT { <> <http://example.org/hit> ?a } WHERE {
  <> <${P}> ?a . <> <${P}> ?b . <> <${P}> ?c FILTER(str(?a) = concat(str(?b), str(?c))) }`;
/** A cross product of 200 × 200 solutions: quick, but far more than MAX_SOLUTIONS. */
const WIDE = `INSERT { <> <http://example.org/pair> ?a } WHERE { <> <${P}> ?a . <> <${P}> ?b }`;

beforeAll(async () => {
  t = await buildRepositoryApp({
    repositoryUpdateTimeoutMs: 1000,
    repositoryUpdateMaxSolutions: MAX_SOLUTIONS,
  });
  const lines = Array.from({ length: 200 }, (_, i) => `<> <${P}> "v${i}" .`).join('\n');
  await createContainer(t.app, '/big', lines);
});
afterAll(async () => {
  await t.close();
});

async function valuesOfBig(): Promise<number> {
  return objects(await repo(t.app, 'GET', '/big'), `${BASE}/big`, P).length;
}

describe(`SPARQL Update limits (${testDialect})`, () => {
  it('an update past its time limit is 422, leaves the resource unchanged, and /health answers meanwhile', async () => {
    const before = (await repo(t.app, 'GET', '/big')).headers.etag;
    const state = { settled: false };
    const patch = repo(t.app, 'PATCH', '/big', sparql(SLOW)).finally(() => {
      state.settled = true;
    });
    // While the update is evaluated the service keeps answering: health checks, one after another,
    // complete until the PATCH is answered. On the main thread the evaluation let none through while
    // it ran (only the few sent before it began, or after it ended).
    let answered = 0;
    for (;;) {
      // A health check on SQLite may complete in microtasks alone: let I/O and timers run in between.
      await new Promise((resolve) => setImmediate(resolve));
      const health = await t.app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      if (state.settled) break;
      answered += 1;
    }
    const response = await patch;
    expect(answered).toBeGreaterThanOrEqual(10);
    expect(response.statusCode).toBe(422);
    expect(response.body).toMatch(/exceeded the time limit of 1000 ms/);
    expect((await repo(t.app, 'GET', '/big')).headers.etag).toBe(before);
    expect(await valuesOfBig()).toBe(200);
  });

  it('an update whose WHERE has more solutions than the limit is 422 and changes nothing', async () => {
    const response = await repo(t.app, 'PATCH', '/big', sparql(WIDE));
    expect(response.statusCode).toBe(422);
    expect(response.body).toMatch(new RegExp(`more than ${MAX_SOLUTIONS} solutions`));
    const got = await repo(t.app, 'GET', '/big');
    expect(objects(got, `${BASE}/big`, 'http://example.org/pair')).toEqual([]);
  });

  it('normal updates still work after a refusal, each operation seeing the ones before it', async () => {
    const response = await repo(
      t.app,
      'PATCH',
      '/big',
      sparql(`PREFIX ex: <http://example.org/>
        INSERT DATA { <> ex:title "first" } ;
        DELETE { <> ex:title ?t } INSERT { <> ex:title "second" ; ex:was ?t } WHERE { <> ex:title ?t } ;
        DELETE WHERE { <> ex:p "v0" }`),
    );
    expect(response.statusCode).toBe(204);
    const got = await repo(t.app, 'GET', '/big');
    expect(objects(got, `${BASE}/big`, 'http://example.org/title')).toEqual(['second']);
    expect(objects(got, `${BASE}/big`, 'http://example.org/was')).toEqual(['first']);
    expect(await valuesOfBig()).toBe(199);
  });

  it('an evaluation error is still a 400', async () => {
    const response = await repo(
      t.app,
      'PATCH',
      '/big',
      sparql('INSERT { <> <http://example.org/x> ?y } WHERE { BIND(1 AS ?y) BIND(2 AS ?y) }'),
    );
    expect(response.statusCode).toBe(400);
  });
});

describe(`SPARQL Update limits through the repository view context (${testDialect})`, () => {
  let v: EmbeddedView;
  beforeAll(async () => {
    v = await listenWithEmbeddedView(t);
  });

  it('POST /query with a runaway update answers an error naming the limit; the resource is unchanged', async () => {
    const uri = `${v.rootUri}big`;
    const response = await sendJson(
      t.app,
      'POST',
      `${v.prefix}/query?contextUri=${encodeURIComponent(uri)}`,
      WIDE,
    );
    expect(response.statusCode).toBeLessThan(500);
    expect(body(response).meta.status).not.toBe('SUCCESS');
    expect(body(response).meta.message).toMatch(/422.*more than 1000 solutions/);
    expect(await valuesOfBig()).toBe(199);
  });
});
