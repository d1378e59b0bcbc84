import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { literal } from '../linked-data/rdf/terms.js';
import { NS } from '../linked-data/rdf/vocab.js';
import { createAdapter } from '../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../repository-adapters/repository-adapter.js';
import { StandInCopies } from '../../test/support/copies/stand-in-copies.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { createView } from '../../test/support/search/index-jobs.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * COPY curation jobs wired into the job system (issue 32, DECISIONS.md §16) through the real app, its
 * embedded repository and its database: every refusal at POST (nothing started), the job's target fields,
 * the runner's phases through `JobCopies` (here the stand-in of test/support/copies, which records what it
 * was asked), the report as JSON and CSV, and who may act on the job.
 */

interface Job {
  id: number;
  kind: string;
  state: string;
  dryRun: boolean;
  repositoryViewId: number;
  targetRepositoryViewId: number | null;
  targetContextUri: string | null;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}

const TITLE = `${NS.dcterms}title`;

let t: TestApp;
let source: EmbeddedView;
let adapter: RepositoryAdapter;
let copies: StandInCopies;
let targetViewId: number;
let foreignViewId: number;
let lockedViewId: number;
let curator: { id: number; token: string };
let collection: string;
let records: string[];
let destination: string;
let binary: string;

async function curatedBy(viewId: number, ids: number[]): Promise<void> {
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${viewId}`)).payload.RepositoryView;
  const response = await sendJson(t.app, 'PUT', '/repository-view', {
    ...(view as object),
    password: null,
    curators: ids.map((id) => ({ id })),
  });
  if (body(response).meta.status !== 'SUCCESS') throw new Error(response.body);
}

function copyJob(overrides: Record<string, unknown> = {}) {
  return {
    kind: 'COPY',
    repositoryViewId: source.viewId,
    contextUri: collection,
    scope: 'CHILDREN',
    targetRepositoryViewId: targetViewId,
    targetContextUri: destination,
    ...overrides,
  };
}

function post(job: Record<string, unknown>, token = curator.token) {
  return sendJson(t.app, 'POST', '/curation-job', job, { token });
}

/** The INVALID answer's messages, by field. */
async function refused(job: Record<string, unknown>, token = curator.token) {
  const before = await jobCount();
  const envelope = body(await post(job, token));
  expect(envelope.meta.status).toBe('INVALID');
  // Nothing started.
  expect(await jobCount()).toBe(before);
  return (envelope.payload.ValidationResults as { messages: Record<string, Record<string, string>> })
    .messages;
}

async function jobCount(): Promise<number> {
  return (body(await sendJson(t.app, 'GET', '/curation-job')).payload['ArrayList<CurationJob>'] as unknown[])
    .length;
}

async function started(job: Record<string, unknown>, token = curator.token): Promise<Job> {
  const envelope = body(await post(job, token));
  expect(envelope.meta.status, JSON.stringify(envelope)).toBe('SUCCESS');
  return envelope.payload.CurationJob as Job;
}

async function until(id: number, states: readonly string[]): Promise<Job> {
  for (let i = 0; i < 400; i++) {
    const job = body(await sendJson(t.app, 'GET', `/curation-job/${id}`)).payload.CurationJob as Job;
    if (states.includes(job.state)) return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}`);
}

/** A container created at exactly `uri` (Fedora's PUT), as the copy engine's named creation will. */
async function putContainer(uri: string): Promise<string> {
  const { username, password } = resolveRepositoryCredentials(t.config);
  const response = await fetch(uri, {
    method: 'PUT',
    headers: {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      'content-type': 'text/turtle',
    },
    body: '',
  });
  if (!response.ok) throw new Error(`PUT ${uri}: ${response.status} ${await response.text()}`);
  return uri;
}

beforeAll(async () => {
  copies = new StandInCopies();
  t = await buildTestApp({ embeddedRepository: true, searchIndexNewViews: false }, { copies });
  source = await listenWithEmbeddedView(t, 'Copy source');
  const credentials = resolveRepositoryCredentials(t.config);
  adapter = createAdapter({
    type: 'FEDORA',
    rootUri: source.rootUri,
    username: credentials.username,
    password: credentials.password,
    dialect: 'FEDORA_6',
  });
  curator = await createUser(t, 'ROLE_CURATOR');
  await curatedBy(source.viewId, [curator.id]);
  const fedora = { type: 'FEDORA', rootUri: source.rootUri, username: credentials.username };
  targetViewId = await createView(t, { ...fedora, name: 'Copy target', password: credentials.password });
  await curatedBy(targetViewId, [curator.id]);
  // A view the curator does not curate, and one whose credentials the repository refuses.
  foreignViewId = await createView(t, { ...fedora, name: 'Not theirs', password: credentials.password });
  lockedViewId = await createView(t, { ...fedora, name: 'Wrong password', password: 'not-the-password' });
  await curatedBy(lockedViewId, [curator.id]);
  const titled = (title: string) => [{ predicate: TITLE, object: literal(title, 'en') }];
  collection = await adapter.createChild(source.rootUri, titled('Collection'));
  records = [
    await adapter.createChild(collection, titled('Record one')),
    await adapter.createChild(collection, titled('Record two')),
  ];
  destination = await adapter.createChild(source.rootUri, titled('Destination'));
  binary = await adapter.uploadBinary(destination, {
    content: Readable.from([Buffer.from('bytes')]),
    filename: 'a.txt',
    contentType: 'text/plain',
  });
});

afterAll(async () => {
  await t.close();
});

describe('POST /curation-job (COPY): refused with clear messages, nothing started', () => {
  it('requires the target fields on COPY and refuses them on other kinds', async () => {
    const missing = await refused(
      copyJob({ targetRepositoryViewId: undefined, targetContextUri: undefined }),
    );
    expect(missing.targetRepositoryViewId).toEqual({
      required: 'A COPY job requires a targetRepositoryViewId',
    });
    expect(missing.targetContextUri).toEqual({ required: 'A COPY job requires a targetContextUri' });
    const fixity = await refused(copyJob({ kind: 'FIXITY' }));
    expect(fixity.targetRepositoryViewId?.type).toBe(
      'Only a COPY job takes a targetRepositoryViewId, not a FIXITY job',
    );
    expect(fixity.targetContextUri?.type).toBe('Only a COPY job takes a targetContextUri, not a FIXITY job');
  });

  it('refuses operators and a format on COPY, and a target view id that is not a positive integer', async () => {
    const messages = await refused(copyJob({ operators: [1], format: 'BAGIT' }));
    expect(messages.operators?.type).toBe('A COPY job takes no operators');
    expect(messages.format?.type).toBe('Only an EXPORT job takes a format, not a COPY job');
    const typed = await refused(copyJob({ targetRepositoryViewId: 'two' }));
    expect(typed.targetRepositoryViewId?.type).toBe(
      "A curation job's targetRepositoryViewId must be a positive integer",
    );
  });

  it('refuses a target view that does not exist (administrator) and one the curator does not curate (403)', async () => {
    const missing = await refused(copyJob({ targetRepositoryViewId: 999_999 }), t.adminToken);
    expect(missing.targetRepositoryViewId?.exists).toBe('RepositoryView with id 999999 does not exist');
    const before = await jobCount();
    const forbidden = await post(copyJob({ targetRepositoryViewId: foreignViewId }));
    expect(forbidden.statusCode).toBe(403);
    expect(body(forbidden).meta.message).toBe(
      `You are not a curator of the target repository view ${foreignViewId}: a COPY job needs a curator of both views`,
    );
    expect(await jobCount()).toBe(before);
  });

  it('refuses a target container on another host, with .. out of the root, or with credentials in it', async () => {
    const elsewhere = await refused(copyJob({ targetContextUri: 'http://attacker.example/rest/x' }));
    expect(elsewhere.targetContextUri?.pattern).toMatch(
      new RegExp(
        `^A COPY job's targetContextUri must lie inside target repository view ${targetViewId}'s root`,
      ),
    );
    const dotted = await refused(copyJob({ targetContextUri: '../../etc' }));
    expect(dotted.targetContextUri?.pattern).toMatch(/must lie inside target repository view/);
    const absoluteDots = await refused(copyJob({ targetContextUri: `${source.rootUri}../admin` }));
    expect(absoluteDots.targetContextUri?.pattern).toMatch(/must lie inside target repository view/);
    const withCredentials = destination.replace('http://', 'http://admin:secret@');
    const credentials = await refused(copyJob({ targetContextUri: withCredentials }));
    expect(credentials.targetContextUri).toEqual({
      pattern: "A COPY job's targetContextUri must not carry credentials",
    });
  });

  it('refuses a target equal to or inside the source, and a source inside the target', async () => {
    const same = await refused(
      copyJob({ targetRepositoryViewId: source.viewId, targetContextUri: collection }),
    );
    expect(same.targetContextUri?.pattern).toBe(
      `A COPY job's target ${collection} is its source ${collection} (in the same view); choose a container outside the source`,
    );
    const inside = await refused(copyJob({ targetContextUri: records[0] }));
    expect(inside.targetContextUri?.pattern).toBe(
      `A COPY job's target ${records[0]} lies inside its source ${collection} (in the same repository); choose a container outside the source`,
    );
    const around = await refused(copyJob({ contextUri: records[1], targetContextUri: collection }));
    expect(around.targetContextUri?.pattern).toBe(
      `A COPY job's source ${records[1]} lies inside its target ${collection} (in the same repository); choose a container outside the source`,
    );
  });

  it('refuses a target that is a binary or does not exist', async () => {
    const file = await refused(copyJob({ targetContextUri: binary }));
    expect(file.targetContextUri?.exists).toBe(
      `The target ${binary} is a binary, which cannot hold binaries or children: choose a container`,
    );
    const gone = `${destination}/nowhere`;
    const missing = await refused(copyJob({ targetContextUri: gone }));
    expect(missing.targetContextUri?.exists).toBe(
      `The target ${gone} does not exist in repository view ${targetViewId}, so it cannot hold children`,
    );
  });

  it('refuses credentials the repository does not accept, naming the side', async () => {
    const target = await refused(copyJob({ targetRepositoryViewId: lockedViewId }));
    expect(target.targetRepositoryViewId?.type).toBe(
      `The target repository view ${lockedViewId} refused the service's credentials: Authentication failed. Status 401`,
    );
    const sourceSide = await refused(
      copyJob({ repositoryViewId: lockedViewId, targetRepositoryViewId: targetViewId }),
    );
    expect(sourceSide.repositoryViewId?.type).toBe(
      `The source repository view ${lockedViewId} refused the service's credentials: Authentication failed. Status 401`,
    );
  });
});

describe('COPY jobs run through JobCopies', () => {
  it('previews by default, applies (as the curator), reports as JSON and CSV, and undoes', async () => {
    const created = await started(copyJob({ targetContextUri: destination.slice(source.rootUri.length) }));
    expect(created).toMatchObject({
      kind: 'COPY',
      dryRun: true,
      targetRepositoryViewId: targetViewId,
      targetContextUri: destination,
    });
    const previewed = await until(created.id, ['PREVIEWED', 'FAILED']);
    expect(previewed.state, previewed.message ?? '').toBe('PREVIEWED');
    expect(previewed.message).toBe('Would copy 3 resources (3 containers, 0 binaries, 0 bytes)');
    expect(previewed.progress).toEqual({ total: 3, done: 3, changed: 3, failed: 0 });
    const plan = copies.calls.find((call) => call.phase === 'plan' && call.request.jobId === created.id);
    expect(plan).toMatchObject({
      sourceRoot: source.rootUri,
      targetRoot: source.rootUri,
      request: { contextUri: collection, scope: 'CHILDREN', targetContextUri: destination, query: null },
    });

    const applying = body(
      await sendJson(t.app, 'POST', `/curation-job/${created.id}/apply`, undefined, { token: curator.token }),
    );
    expect(applying.meta.status).toBe('SUCCESS');
    const applied = await until(created.id, ['APPLIED', 'FAILED']);
    expect(applied.state, applied.message ?? '').toBe('APPLIED');
    expect(applied.message).toBe(
      "Copied 3 resources; 0 failed; versions are not copied, only each resource's current state",
    );
    expect(applied.progress).toEqual({ total: 3, done: 3, changed: 3, failed: 0 });

    const reportOf = async (query: string) =>
      body(
        await sendJson(t.app, 'GET', `/curation-job/${created.id}/report?${query}`, undefined, {
          token: curator.token,
        }),
      ).payload['ArrayList<CopyResult>'] as { sourceUri: string; targetUri: string; outcome: string }[];
    const all = await reportOf('');
    // Plan order: the context first (CHILDREN: it is copied too), then its children as the source lists them.
    expect(all.map((row) => row.sourceUri)).toEqual([
      collection,
      ...all.slice(1).map((row) => row.sourceUri),
    ]);
    expect(
      all
        .slice(1)
        .map((row) => row.sourceUri)
        .sort(),
    ).toEqual([...records].sort());
    const second = all[1]?.sourceUri ?? '';
    expect(await reportOf('offset=1&limit=1')).toEqual([
      {
        sourceUri: second,
        targetUri: `${destination}/${second.split('/').at(-1) ?? ''}`,
        kind: 'CONTAINER',
        bytes: null,
        digestAlgorithm: null,
        digestCheck: null,
        outcome: 'COPIED',
        error: null,
      },
    ]);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/curation-job/${created.id}/report?format=csv`,
      headers: { authorization: `Bearer ${curator.token}` },
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="curation-job-${created.id}-copy.csv"`,
    );
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('sourceUri,targetUri,kind,bytes,digestAlgorithm,digestCheck,outcome,error');
    expect(lines.slice(1, -1)).toHaveLength(3);
    expect(lines[1]).toBe(
      `${collection},${destination}/${collection.split('/').at(-1) ?? ''},CONTAINER,,,,COPIED,`,
    );

    await sendJson(t.app, 'POST', `/curation-job/${created.id}/undo`, undefined, { token: curator.token });
    const undone = await until(created.id, ['UNDONE', 'FAILED']);
    expect(undone.state, undone.message ?? '').toBe('UNDONE');
    expect(undone.message).toBe('Removed 3 resources; 0 failed');
    const undo = copies.calls.find((call) => call.phase === 'undo' && call.request.jobId === created.id);
    expect(undo?.targetRoot).toBe(source.rootUri);
  });

  it('dryRun false plans then applies; a job whose every copy failed ends FAILED', async () => {
    const through = await started(copyJob({ dryRun: false, scope: 'RESOURCE', contextUri: records[0] }));
    expect(through.dryRun).toBe(false);
    const applied = await until(through.id, ['APPLIED', 'FAILED']);
    expect(applied.state, applied.message ?? '').toBe('APPLIED');

    copies.failing.add(records[1] ?? '');
    const failing = await started(copyJob({ dryRun: false, scope: 'RESOURCE', contextUri: records[1] }));
    const failed = await until(failing.id, ['APPLIED', 'FAILED']);
    copies.failing.clear();
    expect(failed.state).toBe('FAILED');
    expect(failed.message).toBe(
      "Copied 0 resources; 1 failed; versions are not copied, only each resource's current state",
    );
    expect(failed.progress).toMatchObject({ done: 1, changed: 0, failed: 1 });
  });

  it('a write-through with a conflict copies nothing, naming the conflict', async () => {
    // A source whose name is taken under the destination already (created at chosen IRIs with PUT).
    const parent = await putContainer(`${source.rootUri}conflicts-${String(Math.random()).slice(2, 8)}`);
    const taken = await putContainer(`${parent}/taken`);
    const existing = await putContainer(`${destination}/taken`);
    const conflicting = await started(copyJob({ dryRun: false, scope: 'RESOURCE', contextUri: taken }));
    const ended = await until(conflicting.id, ['FAILED', 'APPLIED']);
    expect(ended.state).toBe('FAILED');
    expect(ended.message).toBe(
      `Would copy 0 resources (0 containers, 0 binaries, 0 bytes); 1 conflict: ${existing} exists; nothing was copied while a target exists`,
    );
    expect(copies.calls.some((call) => call.phase === 'apply' && call.request.jobId === conflicting.id)).toBe(
      false,
    );
  });

  it('a cancelled apply goes back to PREVIEWED; applying again copies only what was not copied', async () => {
    const job = await started(copyJob());
    await until(job.id, ['PREVIEWED']);
    let rows = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first row passes; the second waits until the cancel was asked.
    copies.gate = async () => {
      rows += 1;
      if (rows === 2) await held;
    };
    const actedBefore = copies.acted.length;
    try {
      await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`, undefined, { token: curator.token });
      for (let i = 0; i < 400 && rows < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const cancel = await sendJson(t.app, 'POST', `/curation-job/${job.id}/cancel`, undefined, {
        token: curator.token,
      });
      expect(body(cancel).meta.status).toBe('SUCCESS');
      // The runner hears the cancel with its heartbeat.
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      release();
    }
    const cancelled = await until(job.id, ['PREVIEWED', 'APPLIED', 'FAILED']);
    expect(cancelled.state, cancelled.message ?? '').toBe('PREVIEWED');
    expect(cancelled.message).toBe(
      'The apply was cancelled; stopped after 1 resources; applying it again goes on from where it stopped',
    );
    copies.gate = undefined;
    await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`, undefined, { token: curator.token });
    const applied = await until(job.id, ['APPLIED', 'FAILED']);
    expect(applied.state, applied.message ?? '').toBe('APPLIED');
    expect(applied.progress).toEqual({ total: 3, done: 3, changed: 3, failed: 0 });
    const acted = copies.acted.slice(actedBefore);
    expect(acted).toHaveLength(3);
    expect(new Set(acted).size).toBe(3);
  });

  it('an apply that failed part way can be undone: what it copied is removed', async () => {
    const job = await started(copyJob());
    await until(job.id, ['PREVIEWED']);
    copies.breakAfter = 1;
    try {
      await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`, undefined, { token: curator.token });
      const failed = await until(job.id, ['FAILED', 'APPLIED']);
      expect(failed.state).toBe('FAILED');
      expect(failed.message).toBe('The target stopped answering after 1 resources');
      expect(failed.progress).toMatchObject({ total: 3, done: 1, changed: 1 });
    } finally {
      copies.breakAfter = undefined;
    }
    const undo = body(
      await sendJson(t.app, 'POST', `/curation-job/${job.id}/undo`, undefined, { token: curator.token }),
    );
    expect(undo.meta.status, JSON.stringify(undo)).toBe('SUCCESS');
    const undone = await until(job.id, ['UNDONE', 'FAILED']);
    expect(undone.state, undone.message ?? '').toBe('UNDONE');
    expect(undone.message).toBe('Removed 1 resources; 0 failed');
  });

  it('a curator who no longer curates the target view may read the job but not apply it', async () => {
    const job = await started(copyJob({ scope: 'RESOURCE', contextUri: collection }));
    await until(job.id, ['PREVIEWED']);
    await curatedBy(targetViewId, []);
    try {
      const apply = await sendJson(t.app, 'POST', `/curation-job/${job.id}/apply`, undefined, {
        token: curator.token,
      });
      expect(apply.statusCode).toBe(403);
      expect(body(apply).meta.message).toBe(
        `You are not a curator of repository view ${targetViewId}, which curation job ${job.id} copies into`,
      );
      const read = await sendJson(t.app, 'GET', `/curation-job/${job.id}`, undefined, {
        token: curator.token,
      });
      expect((body(read).payload.CurationJob as Job).state).toBe('PREVIEWED');
    } finally {
      await curatedBy(targetViewId, [curator.id]);
    }
  });

  it('other kinds carry null target fields', async () => {
    const fixity = await started({
      kind: 'FIXITY',
      repositoryViewId: source.viewId,
      contextUri: collection,
      scope: 'RESOURCE',
    });
    expect(fixity).toMatchObject({ targetRepositoryViewId: null, targetContextUri: null });
  });
});
