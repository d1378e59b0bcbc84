import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveRepositoryCredentials } from '../embedded-repository/credentials.js';
import { literal } from '../linked-data/rdf/terms.js';
import { NS } from '../linked-data/rdf/vocab.js';
import { createView, dublinCore } from '../../test/support/search/index-jobs.js';
import { embeddedSite, type SheetSite } from '../../test/support/spreadsheets/sheet-site.js';
import type { JobCliIo } from '../curation-jobs/job-cli.js';
import { runCopyCommand } from './copy-cli.js';

/**
 * `scriptorium copy` (issue 32, DECISIONS.md §16) against the real app and its embedded repository: a
 * second view rooted at a container of the same repository is the target. A dry run shows the numbers and
 * writes nothing; --apply copies (a binary's bytes arrive whole) and writes the report; a second copy into
 * the same place is told its conflicts; bad input is refused with a message, before any request.
 */

const TITLE = `${NS.dcterms}title`;

describe('scriptorium copy', () => {
  let site: SheetSite;
  let targetViewId = 0;
  let targetRoot = '';
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-copy-cli-'));

  beforeAll(async () => {
    site = await embeddedSite();
    targetRoot = await site.adapter.createChild(site.rootUri, [
      { predicate: TITLE, object: literal('Copy target root', 'en') },
    ]);
    const credentials = resolveRepositoryCredentials(site.t.config);
    targetViewId = await createView(site.t, {
      type: 'FEDORA',
      name: 'Copy target (embedded)',
      rootUri: targetRoot,
      username: credentials.username,
      password: credentials.password,
      schemas: await dublinCore(site.t),
      curators: [{ id: site.curator.id }],
    });
  });
  afterAll(async () => {
    await site.t.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  function cli(token = site.curator.token) {
    const output: string[] = [];
    const requests: string[] = [];
    const io: JobCliIo = {
      env: { SCRIPTORIUM_TOKEN: token },
      fetch: (input, init) => {
        requests.push(`${init?.method ?? 'GET'} ${input instanceof Request ? input.url : input.toString()}`);
        return fetch(input, init);
      },
      readPassword: () => Promise.resolve(''),
      write: (text) => {
        output.push(text);
      },
      interactive: false,
      pollMs: 20,
      onInterrupt: () => undefined,
    };
    const server = site.rootUri.replace(/\/rest\/$/, '');
    return {
      run: (...argv: string[]) => runCopyCommand([...argv, '--server', server], io),
      output: () => output.join(''),
      requests,
    };
  }

  it('refuses bad input with a message and the usage, sending nothing', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['1', 'a', '2'],
        /copy needs a source view id, a context IRI, a target view id and a target context IRI/,
      ],
      [['one', 'a', '2', 'b'], /The source view id must be a positive integer, not one/],
      [['1', 'a', '0', 'b'], /The target view id must be a positive integer, not 0/],
      [['1', 'a', '2', 'b', '--scope', 'everything'], /--scope must be one of RESOURCE, CHILDREN, SUBTREE/],
      [['1', 'a', '2', 'b', '--scope', 'QUERY'], /--scope QUERY needs --query <q>/],
      [
        ['1', 'a', '2', 'b', '--report', 'out.txt'],
        /--report must name a \.csv or \.json file, not out\.txt/,
      ],
      [['1', 'a', '2', 'b', '--colour'], /Unknown option '--colour'/],
    ];
    for (const [argv, message] of cases) {
      const { run, output, requests } = cli();
      expect(await run(...argv), argv.join(' ')).toBe(2);
      expect(output()).toMatch(message);
      expect(output()).toContain('scriptorium copy <source view id>');
      expect(requests).toEqual([]);
    }
  });

  it('plans, applies with progress and writes the report; a second copy meets its conflicts', async () => {
    const collection = await site.adapter.createChild(site.rootUri, [
      { predicate: TITLE, object: literal('Letters to copy', 'en') },
    ]);
    const box = await site.adapter.createChild(collection, [
      { predicate: TITLE, object: literal('Box one', 'en') },
    ]);
    const bytes = Buffer.from('a letter, copied by the command line');
    await site.adapter.uploadBinary(box, {
      content: Readable.from([bytes]),
      filename: 'letter.txt',
      contentType: 'text/plain',
    });
    const segment = collection.replace(/\/$/, '').split('/').pop() ?? '';

    // The dry run: the numbers, nothing written to the target.
    const dry = cli();
    const jsonReport = path.join(scratch, 'plan.json');
    expect(
      await dry.run(String(site.viewId), collection, String(targetViewId), '', '--report', jsonReport),
    ).toBe(0);
    // Said once (the engine's wording of the plan is not added to the runner's).
    expect(dry.output()).toMatch(
      /^Job \d+ PREVIEWED: Would copy 3 resources \(2 containers, 1 binary, 36 bytes\)$/m,
    );
    expect(dry.output()).toMatch(/Apply it with: scriptorium job apply \d+/);
    const plan = JSON.parse(fs.readFileSync(jsonReport, 'utf8')) as { sourceUri: string; outcome: string }[];
    expect(plan.map((row) => row.sourceUri)).toContain(collection);
    expect(plan.every((row) => row.outcome === 'PLANNED')).toBe(true);
    expect((await site.adapter.describe(targetRoot)).children).toEqual([]);

    // --apply: progress lines, APPLIED, the CSV report; the binary's bytes arrived.
    const applied = cli();
    const csvReport = path.join(scratch, 'copy.csv');
    expect(
      await applied.run(
        String(site.viewId),
        collection,
        String(targetViewId),
        '',
        '--apply',
        '--report',
        csvReport,
      ),
      applied.output(),
    ).toBe(0);
    expect(applied.output()).toMatch(/COPY job \d+ APPLYING/);
    expect(applied.output()).toMatch(/COPY job \d+ APPLIED .* 3\/3 · 3 copied · 0 failed/);
    expect(applied.output()).toMatch(/Job \d+ APPLIED: Copied 3 resources/);
    expect(applied.output()).toMatch(/versions are not copied/);
    const csv = fs.readFileSync(csvReport, 'utf8').trim().split(/\r?\n/);
    expect(csv[0]).toBe('sourceUri,targetUri,kind,bytes,digestAlgorithm,digestCheck,outcome,error');
    expect(csv).toHaveLength(4);
    expect(csv.slice(1).every((line) => line.includes(',COPIED,'))).toBe(true);
    expect(csv.find((line) => line.includes(',BINARY,'))).toMatch(/,MATCH,COPIED,/);
    const copied = await site.adapter.describe(targetRoot);
    expect(copied.children).toHaveLength(1);
    expect(copied.children[0]).toMatch(new RegExp(`/${segment}/?$`));
    const copiedBox = (await site.adapter.describe(copied.children[0] ?? '')).children[0] ?? '';
    const copiedLetter = (await site.adapter.describe(copiedBox)).children[0] ?? '';
    const download = await site.adapter.downloadBinary(copiedLetter);
    const chunks: Buffer[] = [];
    for await (const chunk of download.content) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    // The same copy again: every target exists; told, not applied, exit 1; printed report without --report.
    const again = cli();
    expect(await again.run(String(site.viewId), collection, String(targetViewId), '', '--apply')).toBe(1);
    expect(again.output()).toMatch(/Job \d+ PREVIEWED: .*; 3 conflicts: /);
    expect(again.output()).toMatch(/Not applied: the target holds 3 of the planned resources already/);
    const lines = again.output().split('\n');
    expect(lines.filter((line) => /^CONFLICT +CONTAINER /.test(line))).toHaveLength(2);
    expect(lines.filter((line) => /^CONFLICT +BINARY .* 36 bytes \(.* exists\)$/.test(line))).toHaveLength(1);
    expect((await site.adapter.describe(copied.children[0] ?? '')).children).toHaveLength(1);
    // With --report, the conflicts are told on the terminal and the file holds every row.
    const told = cli();
    const conflictReport = path.join(scratch, 'conflicts.json');
    const argv = [String(site.viewId), collection, String(targetViewId), '', '--report', conflictReport];
    expect(await told.run(...argv)).toBe(1);
    expect(
      told
        .output()
        .split('\n')
        .filter((line) => /^CONFLICT: .* exists$/.test(line)),
    ).toHaveLength(3);
    const rows = JSON.parse(fs.readFileSync(conflictReport, 'utf8')) as { outcome: string }[];
    expect(rows.map((row) => row.outcome)).toEqual(['CONFLICT', 'CONFLICT', 'CONFLICT']);
  });

  it('tells the service’s refusal: a target outside the target view, a target view not curated', async () => {
    const outside = cli();
    expect(
      await outside.run(
        String(site.viewId),
        site.rootUri,
        String(targetViewId),
        'http://elsewhere.example/x/',
      ),
    ).toBe(1);
    expect(outside.output()).toMatch(/targetContextUri: /);
    const stranger = cli(site.stranger.token);
    expect(await stranger.run(String(site.viewId), site.rootUri, String(targetViewId), '')).toBe(1);
    expect(stranger.output()).not.toMatch(/Started COPY job/);
  });
});
