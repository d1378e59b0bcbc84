import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listenWithEmbeddedView } from '../support/embedded-view.js';
import { body, buildTestApp, sendJson, type TestApp } from '../support/test-app.js';

/**
 * Issue 12, "done when", through the real API on the embedded repository (FEDORA) and on a real Community
 * Solid Server (LDP): 50 records with titles and dates; a MAPPING job normalising the dates is previewed
 * (50 changes, repository untouched), applied (all 50 changed; on FEDORA inside one transaction, counted at
 * the repository's door), and undone (all back); an edit between preview and apply makes the apply fail
 * with nothing written; a FIXITY job over binaries, one of them corrupted on disk, reports exactly that one.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const DATE = 'http://purl.org/dc/terms/date';
const RECORDS = 50;
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

interface Job {
  id: number;
  state: string;
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
}

function ok(response: LightMyRequestResponse): Record<string, unknown> {
  const envelope = body(response);
  expect(envelope.meta.status, response.body).toBe('SUCCESS');
  return envelope.payload;
}

/** What reached the embedded repository's door (/rest): transactions begun and committed, PATCHes. */
interface DoorCount {
  txBegun: number;
  txCommitted: number;
  patches: { url: string; atomicId: string | undefined }[];
}

function countAtTheDoor(app: FastifyInstance, count: DoorCount): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const url = request.url;
    if (url.startsWith('/rest')) {
      if (request.method === 'POST' && url.endsWith('/fcr:tx')) count.txBegun++;
      if (request.method === 'PUT' && url.includes('/fcr:tx/')) count.txCommitted++;
      if (request.method === 'PATCH') {
        const atomic = request.headers['atomic-id'];
        count.patches.push({ url, atomicId: Array.isArray(atomic) ? atomic[0] : atomic });
      }
    }
    done();
  });
}

interface Target {
  readonly name: string;
  readonly type: 'FEDORA' | 'LDP';
  /** Creates the view; answers its id and the context under which the test builds its collections. */
  view(t: TestApp): Promise<{ viewId: number; parent: string }>;
}

const targets: Target[] = [
  {
    name: 'the embedded repository (FEDORA)',
    type: 'FEDORA',
    async view(t) {
      const view = await listenWithEmbeddedView(t, 'Jobs (embedded)');
      return { viewId: view.viewId, parent: view.rootUri };
    },
  },
  {
    name: 'Community Solid Server (LDP)',
    type: 'LDP',
    async view(t) {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const schemas = ok(await sendJson(t.app, 'GET', '/schema'))['ArrayList<Schema>'] as {
        id: number;
        abbreviation: string;
      }[];
      const root = inject('cssBaseUrl');
      const payload = ok(
        await sendJson(t.app, 'POST', '/repository-view', {
          type: 'LDP',
          name: 'Jobs (CSS)',
          rootUri: root,
          schemas: schemas
            .filter((s) => ['dc', 'dcterms'].includes(s.abbreviation))
            .map((s) => ({ id: s.id })),
        }),
      );
      return { viewId: (payload.RepositoryView as { id: number }).id, parent: root };
    },
  },
];

describe.each(targets)('curation jobs on $name', (target) => {
  let t: TestApp;
  let viewId: number;
  let parent: string;
  let prefix: string;
  let dateOperator: number;
  const door: DoorCount = { txBegun: 0, txCommitted: 0, patches: [] };

  beforeAll(async () => {
    // The LDP view is the whole shared Community Solid Server: the INDEX job a new external view starts by
    // itself would walk every suite's resources there.
    t = await buildTestApp(
      { searchIndexNewViews: false },
      {
        beforeReady: (app) => {
          countAtTheDoor(app, door);
        },
      },
    );
    ({ viewId, parent } = await target.view(t));
    prefix = `/repository-view-context/${target.type}/${viewId}`;
    const operator = ok(
      await sendJson(t.app, 'POST', '/operators', {
        type: 'DATE_NORMALIZATION_OP',
        name: 'ISO dates',
        field: 'dcterms:date',
        value: 'yyyy-MM-dd',
      }),
    );
    dateOperator = (Object.values(operator)[0] as { id: number }).id;
  });
  afterAll(async () => {
    await t.close();
  });

  /** A new collection of `RECORDS` records, each with a title and an American date; answers their IRIs. */
  async function collection(): Promise<{ uri: string; records: string[] }> {
    const title = `"Collection ${randomUUID()}"`;
    const created = ok(
      await sendJson(t.app, 'POST', `${prefix}/children?${q(parent)}`, [{ predicate: TITLE, object: title }]),
    );
    // The answer is the parent's context; the new collection is the child carrying the new title.
    let collectionUri: string | undefined;
    for (const child of (created.RepositoryViewContext as { children: { triple: Triple }[] }).children) {
      const metadata = (
        ok(await sendJson(t.app, 'GET', `${prefix}?${q(child.triple.object)}`)).RepositoryViewContext as {
          metadata: Triple[];
        }
      ).metadata;
      if (metadata.some((m) => m.predicate === TITLE && m.object === title))
        collectionUri = child.triple.object;
    }
    if (collectionUri === undefined) throw new Error('the new collection is not among the children');
    for (let i = 1; i <= RECORDS; i++) {
      ok(
        await sendJson(t.app, 'POST', `${prefix}/children?${q(collectionUri)}`, [
          { predicate: TITLE, object: `"Record ${i}"` },
          { predicate: DATE, object: `"03/${String((i % 28) + 1).padStart(2, '0')}/2001"` },
        ]),
      );
    }
    const records = (
      ok(await sendJson(t.app, 'GET', `${prefix}?${q(collectionUri)}`)).RepositoryViewContext as {
        children: { triple: Triple }[];
      }
    ).children.map((c) => c.triple.object);
    expect(records).toHaveLength(RECORDS);
    return { uri: collectionUri, records };
  }

  async function datesOf(records: readonly string[]): Promise<string[]> {
    const dates: string[] = [];
    for (const record of records) {
      const metadata = (
        ok(await sendJson(t.app, 'GET', `${prefix}?${q(record)}`)).RepositoryViewContext as {
          metadata: Triple[];
        }
      ).metadata;
      dates.push(...metadata.filter((m) => m.predicate === DATE).map((m) => m.object));
    }
    return dates.sort();
  }

  async function until(id: number, states: readonly string[]): Promise<Job> {
    for (let i = 0; i < 600; i++) {
      const job = ok(await sendJson(t.app, 'GET', `/curation-job/${id}`)).CurationJob as Job;
      if (states.includes(job.state)) return job;
      if (['FAILED', 'CANCELLED'].includes(job.state) && !states.includes(job.state))
        throw new Error(`job ${id} ended ${job.state}: ${job.message}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`job ${id} never reached ${states.join('/')}`);
  }

  async function preview(collectionUri: string): Promise<Job> {
    const created = ok(
      await sendJson(t.app, 'POST', '/curation-job', {
        repositoryViewId: viewId,
        contextUri: collectionUri,
        scope: 'CHILDREN',
        kind: 'MAPPING',
        operators: [dateOperator],
      }),
    ).CurationJob as Job;
    return until(created.id, ['PREVIEWED']);
  }

  it('previews 50 changes without writing, applies them all, and undoes them all', async () => {
    const { uri, records } = await collection();
    const original = await datesOf(records);
    expect(original).toHaveLength(RECORDS);
    expect(original.every((d) => /^"03\/\d\d\/2001"$/.test(d))).toBe(true);

    const patchesBefore = door.patches.length;
    const job = await preview(uri);
    expect(job.progress).toMatchObject({ total: RECORDS, done: RECORDS, changed: RECORDS, failed: 0 });
    const changes = ok(await sendJson(t.app, 'GET', `/curation-job/${job.id}/changes?offset=0&limit=100`))[
      'ArrayList<ResourceChange>'
    ] as Change[];
    expect(changes).toHaveLength(RECORDS);
    for (const change of changes) {
      expect(change.error).toBeNull();
      expect(change.removed).toHaveLength(1);
      expect(change.removed[0]).toMatchObject({ subject: change.contextUri, predicate: DATE });
      expect(change.added).toEqual([
        {
          subject: change.contextUri,
          predicate: DATE,
          object: change.removed[0]!.object.replace(/^"03\/(\d\d)\/2001"$/, '"2001-03-$1"'),
        },
      ]);
    }
    // The preview wrote nothing.
    expect(await datesOf(records)).toEqual(original);
    if (target.type === 'FEDORA') expect(door.patches.length).toBe(patchesBefore);

    const tx = { begun: door.txBegun, committed: door.txCommitted, patches: door.patches.length };
    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`));
    const applied = await until(job.id, ['APPLIED']);
    expect(applied.state).toBe('APPLIED');
    const normalised = await datesOf(records);
    expect(normalised).toEqual(original.map((d) => d.replace(/^"03\/(\d\d)\/2001"$/, '"2001-03-$1"')).sort());
    if (target.type === 'FEDORA') {
      // One transaction: begun once, committed once, and every PATCH of the apply inside it.
      expect(door.txBegun - tx.begun).toBe(1);
      expect(door.txCommitted - tx.committed).toBe(1);
      const applyPatches = door.patches.slice(tx.patches);
      expect(applyPatches).toHaveLength(RECORDS);
      expect(new Set(applyPatches.map((p) => p.atomicId)).size).toBe(1);
      expect(applyPatches[0]!.atomicId).toBeDefined();
    }

    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`));
    await until(job.id, ['UNDONE']);
    expect(await datesOf(records)).toEqual(original);
  });

  it('refuses the whole apply when a record changed after the preview, and writes nothing', async () => {
    const { uri, records } = await collection();
    const job = await preview(uri);
    const victim = records[17]!;
    const victimDate = (
      ok(await sendJson(t.app, 'GET', `${prefix}?${q(victim)}`)).RepositoryViewContext as {
        metadata: Triple[];
      }
    ).metadata.find((m) => m.predicate === DATE)!;
    // Another curator edits one record's title between the preview and the apply.
    ok(
      await sendJson(
        t.app,
        'PUT',
        `${prefix}/metadata?${q(victim)}&value=${encodeURIComponent('"Record 18 (edited)"')}`,
        { subject: victim, predicate: TITLE, object: '"Record 18"' },
      ),
    );
    const before = await datesOf(records);

    ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`));
    const failed = await until(job.id, ['FAILED', 'APPLIED']);
    expect(failed.state).toBe('FAILED');
    expect(failed.message).toContain(victim);
    if (target.type === 'FEDORA') {
      // All or nothing: no record was written.
      expect(await datesOf(records)).toEqual(before);
    } else {
      // LDP writes one by one with If-Match: the changed record is not written, and the job names what was.
      expect(await datesOf(records)).toContain(victimDate.object);
    }
    // A failed job cannot be applied again.
    expect(body(await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`)).meta.status).toBe('ERROR');
    if (target.type === 'FEDORA') {
      // Nothing was written: nothing to undo.
      expect(body(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`)).meta.status).toBe('ERROR');
    } else {
      // LDP wrote some before the conflict (those in flight with it, at least): undo writes back exactly those.
      expect(failed.message).toContain('written before');
      ok(await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`));
      await until(job.id, ['UNDONE']);
      expect(await datesOf(records)).toEqual(before);
    }
  });

  if (target.type === 'FEDORA') {
    it('reports exactly the one binary that was corrupted on disk', async () => {
      const { uri } = await collection();
      const contents = Array.from({ length: 5 }, (_, i) => `binary ${i} of ${uri}`);
      for (const [i, content] of contents.entries()) {
        const boundary = `b${i}`;
        ok(
          await t.app.inject({
            method: 'POST',
            url: `${prefix}/resource?${q(uri)}`,
            headers: {
              'content-type': `multipart/form-data; boundary=${boundary}`,
              authorization: `Bearer ${t.adminToken}`,
            },
            payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="file-${i}.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${boundary}--\r\n`,
          }),
        );
      }
      // Binaries are kept by their SHA-512 under <data dir>/binaries/ab/cd/<sha512>: rot the third.
      const sha = createHash('sha512').update(contents[2]!).digest('hex');
      const file = path.join(t.config.dataDir, 'binaries', sha.slice(0, 2), sha.slice(2, 4), sha);
      const bytes = fs.readFileSync(file);
      bytes[0] = (bytes[0] ?? 0) ^ 0xff;
      fs.writeFileSync(file, bytes);

      const created = ok(
        await sendJson(t.app, 'POST', '/curation-job', {
          repositoryViewId: viewId,
          contextUri: uri,
          scope: 'SUBTREE',
          kind: 'FIXITY',
        }),
      ).CurationJob as Job;
      const job = await until(created.id, ['COMPLETED']);
      expect(job.progress).toMatchObject({ total: 5, done: 5, failed: 1 });
      expect(job.message).toBe('1 of 5 binaries failed');
      const report = ok(await sendJson(t.app, 'GET', `/curation-job/${job.id}/report`))[
        'ArrayList<FixityResult>'
      ] as { contextUri: string; status: string; size: string }[];
      expect(report).toHaveLength(5);
      // Failures first.
      expect(report[0]!.status).toBe('BAD_CHECKSUM');
      expect(report.slice(1).every((r) => r.status === 'SUCCESS')).toBe(true);
      const name = (
        ok(await sendJson(t.app, 'GET', `${prefix}?${q(report[0]!.contextUri)}`)).RepositoryViewContext as {
          name: string;
        }
      ).name;
      expect(name).toBe('file-2.txt');

      const csv = await t.app.inject({
        method: 'GET',
        url: `/curation-job/${job.id}/report?format=csv`,
        headers: { authorization: `Bearer ${t.adminToken}` },
      });
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const lines = csv.body.trim().split(/\r?\n/);
      expect(lines).toHaveLength(6);
      expect(lines[1]).toContain('BAD_CHECKSUM');
    });
  }
});
