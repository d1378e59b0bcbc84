import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrlOf, SseClient, type EventEnvelope } from '../../test/support/events/events.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

const TITLE = 'http://purl.org/dc/terms/title';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

interface Job {
  id: number;
  kind: string;
  state: string;
  repositoryViewId: number;
  contextUri: string;
  dryRun: boolean;
  operators: number[];
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}
interface Triple {
  subject: string;
  predicate: string;
  object: string;
}
interface Change {
  contextUri: string;
  removed: Triple[];
  added: Triple[];
  error: string | null;
  warnings: string[];
  removals: Triple[];
}

let t: TestApp;
let view: EmbeddedView;
let ldpViewId: number;
let titleOperator: number;
let collection: string;
let records: string[];
let curator: { id: number; token: string };
let otherCurator: { id: number; token: string };
let user: { id: number; token: string };

function ok(response: { body: string; json: () => unknown }): Record<string, unknown> {
  const envelope = body(response as never);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload;
}

async function createView(name: string, type: 'FEDORA' | 'LDP', curators: number[]): Promise<number> {
  const payload = ok(
    await sendJson(t.app, 'POST', '/repository-view', {
      type,
      name,
      rootUri: `http://127.0.0.1:9/${name}/`,
      curators: curators.map((id) => ({ id })),
    }),
  );
  return (payload.RepositoryView as { id: number }).id;
}

async function titlesOf(uris: readonly string[]): Promise<string[]> {
  const titles: string[] = [];
  for (const uri of uris) {
    const context = ok(await sendJson(t.app, 'GET', `${view.prefix}?${q(uri)}`)).RepositoryViewContext as {
      metadata: { predicate: string; object: string }[];
    };
    titles.push(...context.metadata.filter((m) => m.predicate === TITLE).map((m) => m.object));
  }
  return titles;
}

async function until(id: number, states: readonly string[], token?: string): Promise<Job> {
  for (let i = 0; i < 400; i++) {
    const job = ok(await sendJson(t.app, 'GET', `/curation-job/${id}`, undefined, { token }))
      .CurationJob as Job;
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

function mappingJob(overrides: Record<string, unknown> = {}) {
  return {
    repositoryViewId: view.viewId,
    contextUri: collection,
    scope: 'CHILDREN',
    kind: 'MAPPING',
    operators: [titleOperator],
    ...overrides,
  };
}

async function previewed(token?: string): Promise<Job> {
  const job = ok(await sendJson(t.app, 'POST', '/curation-job', mappingJob(), { token })).CurationJob as Job;
  return until(job.id, ['PREVIEWED'], token);
}

beforeAll(async () => {
  // The views this suite makes on unreachable roots would each start an INDEX job (DECISIONS.md §12): this
  // suite counts the jobs it starts itself.
  t = await buildTestApp({ searchIndexNewViews: false });
  view = await listenWithEmbeddedView(t, 'Jobs (routes)');
  curator = await createUser(t, 'ROLE_CURATOR');
  otherCurator = await createUser(t, 'ROLE_CURATOR');
  user = await createUser(t, 'ROLE_USER');
  ok(
    await sendJson(t.app, 'PUT', '/repository-view', {
      ...(ok(await sendJson(t.app, 'GET', `/repository-view/${view.viewId}`)).RepositoryView as object),
      password: null,
      curators: [{ id: curator.id }],
    }),
  );
  // otherCurator curates a view of their own, just not this one.
  await createView('other', 'FEDORA', [otherCurator.id]);
  ldpViewId = await createView('solid', 'LDP', []);
  titleOperator = (
    ok(
      await sendJson(t.app, 'POST', '/operators', {
        type: 'CONSTANT_OP',
        name: 'Title: catalogued',
        field: 'dcterms:title',
        value: 'Catalogued',
      }),
    ).ConstantOp as { id: number }
  ).id;
  const root = ok(
    await sendJson(t.app, 'POST', `${view.prefix}/children?${q('')}`, [
      { predicate: TITLE, object: 'Collection' },
    ]),
  ).RepositoryViewContext as { children: { triple: { object: string } }[] };
  collection = root.children.map((c) => c.triple.object).at(-1) ?? '';
  records = [];
  for (let n = 1; n <= 5; n++) {
    const parent = ok(
      await sendJson(t.app, 'POST', `${view.prefix}/children?${q(collection)}`, [
        { predicate: TITLE, object: `"Record ${n}"@en` },
      ]),
    ).RepositoryViewContext as { children: { triple: { object: string } }[] };
    // The new child: the one not seen before (children are not listed in creation order).
    const added = parent.children.map((c) => c.triple.object).filter((uri) => !records.includes(uri));
    records.push(...added);
  }
  expect(records).toHaveLength(5);
  records.sort();
});
afterAll(async () => {
  await t.close();
});

describe('POST /curation-job validation', () => {
  it('reports every missing or malformed field at once and stores nothing', async () => {
    const missing = body(await sendJson(t.app, 'POST', '/curation-job', {}));
    expect(missing.meta.status).toBe('INVALID');
    expect(missing.payload.ValidationResults).toEqual({
      valid: false,
      messages: {
        repositoryViewId: { required: 'A curation job requires a repositoryViewId' },
        contextUri: { required: 'A curation job requires a contextUri' },
        scope: { required: 'A curation job requires a scope' },
        kind: { required: 'A curation job requires a kind' },
      },
    });
    const wrong = body(
      await sendJson(
        t.app,
        'POST',
        '/curation-job',
        mappingJob({ kind: 'SPELLING', scope: 'ALL', dryRun: 'yes' }),
      ),
    );
    expect((wrong.payload.ValidationResults as { messages: unknown }).messages).toEqual({
      kind: {
        type: "A curation job's kind must be one of MAPPING, FIXITY, INDEX, SPREADSHEET, EXPORT, COPY",
      },
      scope: { type: "A curation job's scope must be one of RESOURCE, CHILDREN, SUBTREE, QUERY, MEMBERS" },
      dryRun: { type: "A curation job's dryRun must be true or false" },
    });
    expect(ok(await sendJson(t.app, 'GET', '/curation-job'))['ArrayList<CurationJob>']).toEqual([]);
  });

  it('checks the view, the context, the operators and the kind against each other', async () => {
    const messages = async (job: Record<string, unknown>, token?: string) =>
      (
        body(await sendJson(t.app, 'POST', '/curation-job', job, { token })).payload.ValidationResults as {
          messages: Record<string, Record<string, string>>;
        }
      ).messages;
    expect(await messages(mappingJob({ repositoryViewId: 999 }))).toEqual({
      repositoryViewId: { exists: 'RepositoryView with id 999 does not exist' },
    });
    // A curator of another view learns nothing about this one.
    expect(await messages(mappingJob(), otherCurator.token)).toEqual({
      repositoryViewId: { exists: `RepositoryView with id ${view.viewId} does not exist` },
    });
    expect(
      (await messages(mappingJob({ contextUri: 'http://elsewhere.example/x' }))).contextUri?.pattern,
    ).toMatch(/contextUri must be on http:\/\/127\.0\.0\.1/);
    expect((await messages(mappingJob({ contextUri: '../up' }))).contextUri?.pattern).toMatch(/\.\./);
    expect(await messages(mappingJob({ operators: [] }))).toEqual({
      operators: { required: 'A MAPPING job requires at least one operator' },
    });
    expect(await messages(mappingJob({ operators: [titleOperator, 4040, 4041] }))).toEqual({
      operators: { exists: 'Operator with id 4040 does not exist; Operator with id 4041 does not exist' },
    });
    const bare = (
      ok(
        await sendJson(t.app, 'POST', '/operators', {
          type: 'DEFAULT_OP',
          name: 'Bare field',
          field: 'title',
          value: 'x1',
        }),
      ).DefaultOp as { id: number }
    ).id;
    expect((await messages(mappingJob({ operators: [bare] }))).operators?.pattern).toBe(
      `Operator ${bare} (Bare field) has the field "title", which is neither abbreviation:localName of one of the view's schemas (dc, dcterms) nor an absolute IRI; a job names fields by prefixed name, so it matches nothing in a job: use dc:title or dcterms:title`,
    );
    expect(await messages(mappingJob({ kind: 'FIXITY' }))).toEqual({
      operators: { type: 'A FIXITY job takes no operators' },
    });
    expect(
      await messages({ repositoryViewId: ldpViewId, contextUri: '', scope: 'SUBTREE', kind: 'FIXITY' }),
    ).toEqual({
      kind: { type: 'A FIXITY job needs a repository view whose type checks fixity; LDP views do not' },
    });
    expect(ok(await sendJson(t.app, 'GET', '/curation-job'))['ArrayList<CurationJob>']).toEqual([]);
  });
});

describe('curation jobs on the embedded repository', () => {
  it('previews, applies and undoes a MAPPING job (5 containers, CONSTANT_OP on dcterms:title)', async () => {
    const created = ok(await sendJson(t.app, 'POST', '/curation-job', mappingJob(), { token: curator.token }))
      .CurationJob as Job;
    expect(created).toMatchObject({
      kind: 'MAPPING',
      repositoryViewId: view.viewId,
      contextUri: collection,
      dryRun: true,
      createdBy: curator.id,
      operators: [titleOperator],
    });
    const job = await until(created.id, ['PREVIEWED', 'FAILED']);
    expect(job).toMatchObject({
      state: 'PREVIEWED',
      message: '5 of 5 resources change',
      progress: { total: 5, done: 5, changed: 5, failed: 0 },
    });
    // Nothing written by the preview.
    expect((await titlesOf(records)).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `"Record ${n}"@en`));
    const changes = ok(await sendJson(t.app, 'GET', `/curation-job/${job.id}/changes?offset=0&limit=2`))[
      'ArrayList<ResourceChange>'
    ] as Change[];
    expect(changes).toHaveLength(2);
    // The transformed value keeps its original's language tag.
    expect(changes[0]).toEqual({
      contextUri: records[0],
      removed: [
        {
          subject: records[0],
          predicate: TITLE,
          object: expect.stringMatching(/^"Record \d"@en$/) as string,
        },
      ],
      added: [{ subject: records[0], predicate: TITLE, object: '"Catalogued"@en' }],
      error: null,
      warnings: [],
      removals: [],
      // A MAPPING change comes from no sheet row.
      row: null,
    });
    const rest = ok(await sendJson(t.app, 'GET', `/curation-job/${job.id}/changes?offset=2`))[
      'ArrayList<ResourceChange>'
    ] as Change[];
    expect(rest.map((change) => change.contextUri)).toEqual(records.slice(2));

    const applying = ok(
      await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`, undefined, { token: curator.token }),
    ).CurationJob as Job;
    expect(applying.state).toBe('APPLYING');
    expect(await until(job.id, ['APPLIED', 'FAILED'])).toMatchObject({
      state: 'APPLIED',
      message: '5 resources written',
    });
    expect(await titlesOf(records)).toEqual(records.map(() => '"Catalogued"@en'));

    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`));
    expect(await until(job.id, ['UNDONE', 'FAILED'])).toMatchObject({
      state: 'UNDONE',
      message: '5 resources restored',
    });
    expect((await titlesOf(records)).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `"Record ${n}"@en`));
  });

  it('apply and undo publish context/<viewId> UPDATE for every resource written; a preview publishes none', async () => {
    const stream = await SseClient.open(`${baseUrlOf(t.app)}/events`, {
      authorization: `Bearer ${t.adminToken}`,
    });
    try {
      // The job's own event of each end comes after whatever its phase published (a stream keeps order).
      const ended = async (id: number, state: string) => {
        await stream.waitForEvent(
          (envelope, event) =>
            event === `curation-job/${id}` &&
            (envelope.payload.CurationJob as { state?: string } | undefined)?.state === state,
        );
        return stream.events.length;
      };
      const contextEvents = (from: number, to: number) =>
        stream.events
          .slice(from, to)
          .filter((message) => message.event === `context/${view.viewId}`)
          .map((message) => message.envelope);
      const iris = (envelopes: EventEnvelope[]) => envelopes.map((envelope) => envelope.meta.id).sort();

      const created = ok(await sendJson(t.app, 'POST', '/curation-job', mappingJob())).CurationJob as Job;
      const previewedAt = await ended(created.id, 'PREVIEWED');
      expect(contextEvents(0, previewedAt)).toEqual([]);

      ok(await sendJson(t.app, 'POST', `/curation-job/${created.id}/apply`));
      const appliedAt = await ended(created.id, 'APPLIED');
      const applied = contextEvents(previewedAt, appliedAt);
      expect(iris(applied)).toEqual(records);
      expect(applied.every((envelope) => envelope.meta.action === 'UPDATE')).toBe(true);

      ok(await sendJson(t.app, 'POST', `/curation-job/${created.id}/undo`));
      const undoneAt = await ended(created.id, 'UNDONE');
      const undone = contextEvents(appliedAt, undoneAt);
      expect(iris(undone)).toEqual(records);
      expect(undone.every((envelope) => envelope.meta.action === 'UPDATE')).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('keeps the dates DATE_NORMALIZATION_OP cannot read, lists them as warnings and marks pure removals', async () => {
    const DATE = 'http://purl.org/dc/terms/date';
    const datesOf = async (uri: string) =>
      (
        ok(await sendJson(t.app, 'GET', `${view.prefix}?${q(uri)}`)).RepositoryViewContext as {
          metadata: Triple[];
        }
      ).metadata
        .filter((m) => m.predicate === DATE)
        .map((m) => m.object)
        .sort();
    const operator = (
      ok(
        await sendJson(t.app, 'POST', '/operators', {
          type: 'DATE_NORMALIZATION_OP',
          name: 'ISO dates',
          field: 'dcterms:date',
          value: 'yyyy-MM-dd',
        }),
      ).DateNormalizationOp as { id: number }
    ).id;
    const childrenOf = async (uri: string) =>
      (
        ok(await sendJson(t.app, 'GET', `${view.prefix}?${q(uri)}`)).RepositoryViewContext as {
          children: { triple: { object: string } }[];
        }
      ).children.map((c) => c.triple.object);
    const before = await childrenOf('');
    ok(
      await sendJson(t.app, 'POST', `${view.prefix}/children?${q('')}`, [
        { predicate: TITLE, object: 'Dates' },
      ]),
    );
    const parent = (await childrenOf('')).find((uri) => !before.includes(uri)) ?? '';
    const child = async (dates: string[]): Promise<string> => {
      const known = await childrenOf(parent);
      ok(
        await sendJson(
          t.app,
          'POST',
          `${view.prefix}/children?${q(parent)}`,
          dates.map((date) => ({ predicate: DATE, object: date })),
        ),
      );
      return (await childrenOf(parent)).find((uri) => !known.includes(uri)) ?? '';
    };
    // Two unreadable dates kept, and one normalized onto a date already there (removed, nothing added).
    const merged = await child(['ca. 1920', 'March 2020', '03/25/2020', '2020-03-25']);
    const rewritten = await child(['1920']);
    const unreadable = await child(['ca. 1920']);

    const created = ok(
      await sendJson(
        t.app,
        'POST',
        '/curation-job',
        mappingJob({ contextUri: parent, operators: [operator] }),
      ),
    ).CurationJob as Job;
    expect(await until(created.id, ['PREVIEWED', 'FAILED'])).toMatchObject({
      state: 'PREVIEWED',
      message: '2 of 3 resources change; 3 warnings',
    });
    const changes = ok(await sendJson(t.app, 'GET', `/curation-job/${created.id}/changes`))[
      'ArrayList<ResourceChange>'
    ] as Change[];
    const byUri = new Map(changes.map((change) => [change.contextUri, change]));
    expect(byUri.size).toBe(3);
    const kept = (value: string) =>
      `DATE_NORMALIZATION_OP "ISO dates" could not transform dcterms:date value "${value}"; kept as it is`;
    const lost = { subject: merged, predicate: DATE, object: '"03/25/2020"' };
    expect(byUri.get(merged)).toEqual({
      contextUri: merged,
      removed: [lost],
      added: [],
      error: null,
      warnings: expect.arrayContaining([kept('ca. 1920'), kept('March 2020')]) as string[],
      removals: [lost],
      row: null,
    });
    expect(byUri.get(merged)?.warnings).toHaveLength(2);
    expect(byUri.get(rewritten)).toEqual({
      contextUri: rewritten,
      removed: [{ subject: rewritten, predicate: DATE, object: '"1920"' }],
      added: [{ subject: rewritten, predicate: DATE, object: '"1920-01-01"' }],
      error: null,
      warnings: [],
      removals: [],
      row: null,
    });
    // Nothing changes there, but the curator is told what was kept.
    expect(byUri.get(unreadable)).toEqual({
      contextUri: unreadable,
      removed: [],
      added: [],
      error: null,
      warnings: [kept('ca. 1920')],
      removals: [],
      row: null,
    });

    ok(await sendJson(t.app, 'POST', `/curation-job/${created.id}/apply`));
    expect(await until(created.id, ['APPLIED', 'FAILED'])).toMatchObject({
      state: 'APPLIED',
      message: '2 resources written; 3 warnings',
    });
    expect(await datesOf(merged)).toEqual(['"2020-03-25"', '"March 2020"', '"ca. 1920"']);
    expect(await datesOf(rewritten)).toEqual(['"1920-01-01"']);
    expect(await datesOf(unreadable)).toEqual(['"ca. 1920"']);
  });

  it('of two applies at once exactly one wins; the refusals name the state', async () => {
    const job = await previewed();
    const [a, b] = await Promise.all([
      sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`),
      sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`),
    ]);
    const statuses = [body(a).meta.status, body(b).meta.status].sort();
    expect(statuses).toEqual(['ERROR', 'SUCCESS']);
    await until(job.id, ['APPLIED']);
    const again = body(await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`));
    expect(again.meta).toMatchObject({
      status: 'ERROR',
      message: `Curation job ${job.id} is APPLIED; only a previewed job can be applied`,
    });
    expect(body(await sendJson(t.app, 'POST', `/curation-job/${job.id}/cancel`)).meta).toMatchObject({
      status: 'ERROR',
      message: `Curation job ${job.id} is APPLIED; only a QUEUED, RUNNING, APPLYING or UNDOING job can be cancelled`,
    });
    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`));
    await until(job.id, ['UNDONE']);
    expect(body(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`)).meta).toMatchObject({
      status: 'ERROR',
      message: `Curation job ${job.id} is UNDONE; only a applied job can be undone`.replace(
        'a applied',
        'an applied',
      ),
    });
  });

  it('a FIXITY job with nothing to check completes; its report is JSON or a CSV download', async () => {
    const created = ok(
      await sendJson(t.app, 'POST', '/curation-job', {
        repositoryViewId: view.viewId,
        contextUri: collection,
        scope: 'SUBTREE',
        kind: 'FIXITY',
      }),
    ).CurationJob as Job;
    expect(created.dryRun).toBe(false);
    const job = await until(created.id, ['COMPLETED', 'FAILED']);
    expect(job).toMatchObject({ state: 'COMPLETED', message: '0 of 0 binaries failed' });
    expect(
      ok(await sendJson(t.app, 'GET', `/curation-job/${job.id}/report`))['ArrayList<FixityResult>'],
    ).toEqual([]);
    const csv = await sendJson(t.app, 'GET', `/curation-job/${job.id}/report?format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="curation-job-${job.id}-fixity.csv"`,
    );
    expect(csv.body).toBe('contextUri,status,messageDigest,size,error\r\n');
    const bad = await sendJson(t.app, 'GET', `/curation-job/${job.id}/report?format=xlsx`);
    expect(bad.statusCode).toBe(400);
    expect(body(bad).meta).toMatchObject({
      status: 'ERROR',
      message: 'The query parameter format must be json or csv',
    });
  });
});

describe('curation job permissions and unknown ids', () => {
  it('a curator of another view sees nothing and cannot act; a USER is refused', async () => {
    const job = await previewed(curator.token);
    const mine = ok(await sendJson(t.app, 'GET', '/curation-job', undefined, { token: curator.token }))[
      'ArrayList<CurationJob>'
    ] as Job[];
    expect(mine.map((j) => j.id)).toContain(job.id);
    expect(
      ok(await sendJson(t.app, 'GET', '/curation-job', undefined, { token: otherCurator.token })),
    ).toEqual({
      'ArrayList<CurationJob>': [],
    });
    for (const [method, path] of [
      ['GET', `/curation-job/${job.id}`],
      ['GET', `/curation-job/${job.id}/changes`],
      ['GET', `/curation-job/${job.id}/report`],
      ['POST', `/curation-job/${job.id}/apply`],
      ['POST', `/curation-job/${job.id}/undo`],
      ['POST', `/curation-job/${job.id}/cancel`],
    ] as const) {
      const response = await sendJson(t.app, method, path, undefined, { token: otherCurator.token });
      expect(response.statusCode, path).toBe(404);
      expect(body(response).meta.message).toBe(`CurationJob with id ${job.id} does not exist`);
    }
    expect((await sendJson(t.app, 'GET', `/curation-job/${job.id}`)).statusCode).toBe(200);
    expect((await until(job.id, ['PREVIEWED'])).state).toBe('PREVIEWED');
    const refused = await sendJson(t.app, 'GET', '/curation-job', undefined, { token: user.token });
    expect(refused.statusCode).toBe(403);
    expect(body(refused).meta.status).toBe('UNAUTHORIZED');
    expect(
      (await sendJson(t.app, 'POST', '/curation-job', mappingJob(), { token: user.token })).statusCode,
    ).toBe(403);
  });

  it('an unknown id is a 404 ERROR; a malformed id or page is a 400 ERROR', async () => {
    const unknown = await sendJson(t.app, 'GET', '/curation-job/987654');
    expect(unknown.statusCode).toBe(404);
    expect(body(unknown).meta).toMatchObject({
      status: 'ERROR',
      message: 'CurationJob with id 987654 does not exist',
    });
    expect((await sendJson(t.app, 'POST', '/curation-job/987654/apply')).statusCode).toBe(404);
    const malformed = await sendJson(t.app, 'GET', '/curation-job/abc');
    expect(malformed.statusCode).toBe(400);
    expect(body(malformed).meta.status).toBe('ERROR');
    const job = await previewed();
    const page = await sendJson(t.app, 'GET', `/curation-job/${job.id}/changes?limit=0`);
    expect(page.statusCode).toBe(400);
    expect(body(page).meta.message).toBe('The query parameter limit must be an integer from 1 to 1000');
  });

  it('cancels a running job: it stops and ends CANCELLED; a second cancel is refused', async () => {
    // A repository that accepts connections and answers nothing for a while: the job is surely running.
    const server = net.createServer((socket) => {
      setTimeout(() => socket.destroy(), 300).unref();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const stalled = (
        ok(
          await sendJson(t.app, 'POST', '/repository-view', {
            type: 'FEDORA',
            name: 'stalled',
            rootUri: `http://127.0.0.1:${port}/rest/`,
            dialect: 'FEDORA_6',
            schemas: (
              ok(await sendJson(t.app, 'GET', '/schema'))['ArrayList<Schema>'] as { id: number }[]
            ).map(({ id }) => ({ id })),
          }),
        ).RepositoryView as { id: number }
      ).id;
      const created = ok(
        await sendJson(
          t.app,
          'POST',
          '/curation-job',
          mappingJob({ repositoryViewId: stalled, contextUri: '' }),
        ),
      ).CurationJob as Job;
      const cancelled = ok(await sendJson(t.app, 'POST', `/curation-job/${created.id}/cancel`))
        .CurationJob as Job;
      expect(['QUEUED', 'RUNNING', 'CANCELLED']).toContain(cancelled.state);
      expect(await until(created.id, ['CANCELLED', 'FAILED', 'PREVIEWED'])).toMatchObject({
        state: 'CANCELLED',
      });
      expect(body(await sendJson(t.app, 'POST', `/curation-job/${created.id}/cancel`)).meta).toMatchObject({
        status: 'ERROR',
        message: `Curation job ${created.id} is CANCELLED; only a QUEUED, RUNNING, APPLYING or UNDOING job can be cancelled`,
      });
    } finally {
      server.close();
    }
  });
});
