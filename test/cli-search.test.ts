import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from './support/embedded-view.js';
import { eventually } from './support/search-feed.js';
import { body, buildTestApp, sendJson, TEST_ADMIN, type TestApp } from './support/test-app.js';

/**
 * `scriptorium search …` and `scriptorium reindex …` against a real service (issue 28): the CLI prints the
 * hits of a query with their snippets and the facets, rebuilds a view's index through an INDEX job showing its
 * progress, and refuses bad input with the API's own message (a malformed query names its position).
 */
const TITLE = 'http://purl.org/dc/terms/title';

let t: TestApp;
let view: EmbeddedView;
let server: string;

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
      ['--import', 'tsx', 'src/cli.ts', ...args, '--server', server],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : (error.code as number | null), stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

async function search(q: string): Promise<number> {
  const query = new URLSearchParams({ q });
  const envelope = body(await sendJson(t.app, 'GET', `${view.prefix}/search?${query.toString()}`));
  return (envelope.payload.SearchResults as { total: number }).total;
}

beforeAll(async () => {
  t = await buildTestApp({ embeddedRepository: true });
  view = await listenWithEmbeddedView(t, 'CLI search');
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  for (const title of ['Letters from Austin', 'Austin harbour map', 'A winter parade'])
    await sendJson(t.app, 'POST', `${view.prefix}/children?contextUri=${encodeURIComponent(view.rootUri)}`, [
      { predicate: TITLE, object: `"${title}"` },
    ]);
  expect(await eventually(async () => (await search('austin')) === 2)).toBe(true);
});
afterAll(async () => {
  await t.close();
});

describe('scriptorium search', () => {
  it('prints the hits, their snippets and the facets', async () => {
    const run = await cli(['search', String(view.viewId), 'austin'], { SCRIPTORIUM_TOKEN: t.adminToken });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^2 hits \(showing 1–2; /);
    expect(run.stdout).toContain('Letters from Austin');
    expect(run.stdout).toContain('Austin harbour map');
    expect(run.stdout).not.toContain('A winter parade');
    expect(run.stdout).toContain('**Austin**');
    expect(run.stdout).toContain(`Predicates: ${TITLE} (2)`);
  });

  it('signs in with --username and the password on standard input', async () => {
    const run = await cli(
      ['search', String(view.viewId), 'dcterms:title:parade', '--username', TEST_ADMIN.username],
      {},
      `${TEST_ADMIN.password}\n`,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^1 hit \(showing 1–1; /);
    expect(run.stdout).toContain('A winter parade');
  });

  it('refuses a malformed query with its position, and usage errors, never a stack trace', async () => {
    const bad = await cli(['search', String(view.viewId), 'austin "unclosed'], {
      SCRIPTORIUM_TOKEN: t.adminToken,
    });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/position 7/);
    expect(bad.stdout).not.toMatch(/\bat .*\.ts:\d+/);
    const missing = await cli(['search', String(view.viewId)], { SCRIPTORIUM_TOKEN: t.adminToken });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toContain('scriptorium search <view id>');
    const notAView = await cli(['search', 'abc', 'x'], { SCRIPTORIUM_TOKEN: t.adminToken });
    expect(notAView.code).toBe(1);
    expect(notAView.stdout).toContain('A view id is a positive whole number, not abc');
  });
});

describe('scriptorium reindex', () => {
  it('rebuilds the view through an INDEX job, showing its progress to the end', async () => {
    const run = await cli(['reindex', String(view.viewId)], { SCRIPTORIUM_TOKEN: t.adminToken });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const id = /Started INDEX job (\d+)/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    expect(run.stdout).toMatch(new RegExp(`Job ${id} COMPLETED`));
    // The root and its three children.
    expect(run.stdout).toMatch(/INDEX job \d+ COMPLETED +\[█{24}\] 100 % 4\/4/);
    expect(await search('austin')).toBe(2);
  });
});
