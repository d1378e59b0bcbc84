import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import {
  body,
  buildTestApp,
  sendJson,
  WITHOUT_SEARCH_FEED,
  type TestApp,
} from '../../test/support/test-app.js';
import { testDialect } from '../../test/support/test-database.js';
import { isBackgroundStatement } from '../../test/support/background-statements.js';

/**
 * Concurrent metadata edits of one resource through the context API (issue 27, finding 1): every one
 * succeeds, none is lost, and together they cost what the same edits cost one after another, counted in
 * requests reaching /rest (one PATCH and the render's two reads each) and SQL statements, never in time.
 * An edit that met conflicts and started over would PATCH or read again.
 */
let t: TestApp;
let v: EmbeddedView;
let restRequests = 0;
let queries = 0;
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;
const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
const EDITS = 20;

beforeAll(async () => {
  t = await buildTestApp(
    { embeddedRepository: true, ...WITHOUT_SEARCH_FEED },
    {
      onQuery: (sql) => {
        if (!isBackgroundStatement(sql)) queries += 1;
      },
      beforeReady: (app) => {
        app.addHook('onRequest', (request, _reply, done) => {
          if (request.url.startsWith('/rest')) restRequests++;
          done();
        });
      },
    },
  );
  v = await listenWithEmbeddedView(t);
  // A view's first render records the repository's dialect (a write); later ones change nothing.
  await sendJson(t.app, 'GET', `${v.prefix}?${q(v.rootUri)}`);
});
afterAll(async () => {
  await t.close();
});

interface Rendered {
  metadata: { predicate: string; object: string }[];
  children: { triple: { object: string } | null }[];
}

async function render(uri: string): Promise<Rendered> {
  const envelope = body(await sendJson(t.app, 'GET', `${v.prefix}?${q(uri)}`));
  if (envelope.meta.status !== 'SUCCESS') throw new Error(envelope.meta.message);
  return envelope.payload.RepositoryViewContext as Rendered;
}

/** A new child of the root, rendered once (so its patch target is known, as after a curator opened it). */
async function resource(): Promise<string> {
  const before = new Set((await render(v.rootUri)).children.map((c) => c.triple?.object));
  const created = body(await sendJson(t.app, 'POST', `${v.prefix}/children?${q(v.rootUri)}`, []));
  expect(created.meta.status).toBe('SUCCESS');
  const uri = (await render(v.rootUri)).children
    .map((c) => c.triple?.object)
    .find((o) => o !== undefined && !before.has(o));
  if (uri === undefined) throw new Error('no new child');
  await render(uri);
  return uri;
}

const add = (uri: string, i: number) =>
  sendJson(t.app, 'POST', `${v.prefix}/metadata?${q(uri)}`, {
    subject: uri,
    predicate: DC_TITLE,
    object: `"edit ${i}"`,
  });

/** Requests reaching /rest and SQL statements while `run` runs. */
async function cost(run: () => Promise<unknown>): Promise<{ rest: number; statements: number }> {
  const [r, s] = [restRequests, queries];
  await run();
  return { rest: restRequests - r, statements: queries - s };
}

const titles = (context: Rendered) =>
  context.metadata
    .filter((m) => m.predicate === DC_TITLE)
    .map((m) => m.object)
    .sort();

describe(`concurrent context metadata edits of one resource (${testDialect})`, () => {
  it('20 edits sent together all succeed, none is lost, at the cost of the same edits one after another', async () => {
    const serialUri = await resource();
    const serial = await cost(async () => {
      for (let i = 0; i < EDITS; i++) expect(body(await add(serialUri, i)).meta.status).toBe('SUCCESS');
    });
    const uri = await resource();
    let statuses: string[] = [];
    const together = await cost(async () => {
      const answers = await Promise.all(Array.from({ length: EDITS }, (_, i) => add(uri, i)));
      statuses = answers.map((a) => body(a).meta.status);
    });
    expect(statuses).toEqual(Array.from({ length: EDITS }, () => 'SUCCESS'));
    expect(titles(await render(uri))).toEqual(titles(await render(serialUri)));
    expect(titles(await render(uri))).toHaveLength(EDITS);
    // One PATCH and the render's two reads per edit, serial or not.
    expect(serial.rest).toBe(3 * EDITS);
    expect(together.rest).toBe(serial.rest);
    // In its turn an edit after the first reads the resource once more (what it read before is out of
    // date), and the view's kept reads are shared or not as the requests interleave: a little over the
    // serial count, where an edit that started over would repeat all of its statements.
    expect(together.statements).toBeLessThanOrEqual(serial.statements + 2 * EDITS);
  });
});
