import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from './support/embedded-view.js';
import { body, buildTestApp, sendJson, TEST_ADMIN, type TestApp } from './support/test-app.js';

/**
 * `scriptorium job …` against a real service: the CLI starts a MAPPING job over three records through the
 * API, follows it to PREVIEWED, applies it, and refuses bad input with the API's own messages.
 */
const DATE = 'http://purl.org/dc/terms/date';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

let t: TestApp;
let view: EmbeddedView;
let server: string;
let collection: string;
let operatorId: number;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI in a child process; asynchronous, since this process serves the API it calls. */
function cli(args: string[], env: Record<string, string> = {}, input = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'job', ...args, '--server', server],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number | null), stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  view = await listenWithEmbeddedView(t, 'CLI jobs');
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const parent = body(
    await sendJson(t.app, 'POST', `${view.prefix}/children?${q(view.rootUri)}`, [
      { predicate: 'http://purl.org/dc/terms/title', object: '"CLI collection"' },
    ]),
  ).payload.RepositoryViewContext as { children: { triple: { object: string } }[] };
  collection = parent.children.at(-1)!.triple.object;
  for (const day of ['01', '02', '03'])
    await sendJson(t.app, 'POST', `${view.prefix}/children?${q(collection)}`, [
      { predicate: DATE, object: `"03/${day}/2001"` },
    ]);
  const operator = body(
    await sendJson(t.app, 'POST', '/operators', {
      type: 'DATE_NORMALIZATION_OP',
      name: 'ISO dates',
      field: 'dcterms:date',
      value: 'yyyy-MM-dd',
    }),
  ).payload;
  operatorId = (Object.values(operator)[0] as { id: number }).id;
});
afterAll(async () => {
  await t.close();
});

describe('scriptorium job', () => {
  it('runs a preview to its end, showing progress, then applies it', async () => {
    const run = await cli(
      [
        'run',
        '--view',
        String(view.viewId),
        '--context',
        collection,
        '--kind',
        'mapping',
        '--scope',
        'children',
        '--operators',
        String(operatorId),
      ],
      { SCRIPTORIUM_TOKEN: t.adminToken },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = /Started MAPPING job (\d+)/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    // Not a terminal: one line per change of the progress, the last one full.
    expect(run.stdout).toMatch(/MAPPING job \d+ PREVIEWED +\[█{24}\] 100 % 3\/3 · 3 changed · 0 failed/);
    expect(run.stdout).toMatch(new RegExp(`Job ${id} PREVIEWED`));

    const applied = await cli(
      ['apply', id!, '--username', TEST_ADMIN.username],
      {},
      `${TEST_ADMIN.password}\n`,
    );
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`Job ${id} APPLIED`);
    const dates = [];
    const children = (
      body(await sendJson(t.app, 'GET', `${view.prefix}?${q(collection)}`)).payload.RepositoryViewContext as {
        children: { triple: { object: string } }[];
      }
    ).children;
    for (const child of children) {
      const metadata = (
        body(await sendJson(t.app, 'GET', `${view.prefix}?${q(child.triple.object)}`)).payload
          .RepositoryViewContext as { metadata: { predicate: string; object: string }[] }
      ).metadata;
      dates.push(...metadata.filter((m) => m.predicate === DATE).map((m) => m.object));
    }
    expect(dates.sort()).toEqual(['"2001-03-01"', '"2001-03-02"', '"2001-03-03"']);
  });

  it('refuses bad input with the API messages and an exit code, never a stack trace', async () => {
    const unknownOperator = await cli(
      [
        'run',
        '--view',
        String(view.viewId),
        '--context',
        collection,
        '--kind',
        'MAPPING',
        '--operators',
        '99999',
      ],
      { SCRIPTORIUM_TOKEN: t.adminToken },
    );
    expect(unknownOperator.code).toBe(1);
    expect(unknownOperator.stdout).toMatch(/^operators/m);
    expect(unknownOperator.stdout).not.toMatch(/\bat .*\.ts:\d+/);

    const noKind = await cli(['run', '--view', '1', '--context', collection], { SCRIPTORIUM_TOKEN: 'x' });
    expect(noKind.code).toBe(2);
    expect(noKind.stdout).toContain('job run needs --view, --context and --kind');

    const unsigned = await cli(['show', '1']);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('Sign in with SCRIPTORIUM_TOKEN');

    const badToken = await cli(['show', '1'], { SCRIPTORIUM_TOKEN: 'not-a-token' });
    expect(badToken.code).toBe(1);
    expect(badToken.stdout).toBe('UNAUTHORIZED: Your token is unknown, revoked or expired; sign in again\n');
  });

  it('takes --scope QUERY with --query, and tells a missing, malformed or misplaced query as the API does', async () => {
    const run = ['run', '--view', String(view.viewId), '--context', collection, '--kind', 'MAPPING'];
    const token = { SCRIPTORIUM_TOKEN: t.adminToken };
    // The three dated records reach the view's index through the search feed.
    for (let i = 0; i < 200; i++) {
      const results = body(
        await sendJson(
          t.app,
          'GET',
          `${view.prefix}/search?${q(collection)}&q=${encodeURIComponent('has:dcterms:date')}`,
        ),
      ).payload.SearchResults as { total: number };
      if (results.total === 3) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const queried = await cli(
      [...run, '--query', 'has:dcterms:date', '--operators', String(operatorId)],
      token,
    );
    expect(queried.stderr).toBe('');
    expect(queried.code).toBe(0);
    expect(queried.stdout).toMatch(/MAPPING job \d+ PREVIEWED +\[█{24}\] 100 % 3\/3/);
    const members = await cli([...run, '--scope', 'members', '--operators', String(operatorId)], token);
    expect(members.code).toBe(0);
    expect(members.stdout).toContain(`PREVIEWED: 0 of 0 resources change; ${collection} has no members`);
    const noQuery = await cli([...run, '--scope', 'query', '--operators', String(operatorId)], token);
    expect(noQuery.code).toBe(1);
    expect(noQuery.stdout).toBe(
      'query: A QUERY-scoped curation job requires a query (SUBTREE is every resource below contextUri)\n',
    );
    const malformed = await cli(
      [...run, '--query', 'dcterms:date:"03', '--operators', String(operatorId)],
      token,
    );
    expect(malformed.code).toBe(1);
    expect(malformed.stdout).toMatch(/^query: .* \(at position 13\)\n$/);
    const queryElsewhere = await cli(
      [...run, '--scope', 'members', '--query', 'x', '--operators', String(operatorId)],
      token,
    );
    expect(queryElsewhere.stdout).toBe(
      'query: Only a QUERY-scoped curation job takes a query, not a MEMBERS-scoped one\n',
    );
  }, 120_000);
});
