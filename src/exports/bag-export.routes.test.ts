import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DOMParser } from '@xmldom/xmldom';
import N3 from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal } from '../linked-data/rdf/terms.js';
import { NS } from '../linked-data/rdf/vocab.js';
import { extractTar, extractZip } from '../../test/support/bagit/archives.js';
import { validateBag } from '../../test/support/bagit/validate-bag.js';
import { jobUntil, payloadOf } from '../../test/support/curation-jobs/ledger-sites.js';
import { embeddedSite, type SheetSite } from '../../test/support/spreadsheets/sheet-site.js';
import { body, sendJson } from '../../test/support/test-app.js';
import { binaryFile, METADATA_FILE, resourceDirectory } from './bag-paths.js';
import { runExportBagCommand } from './export-cli.js';
import { userQuads } from './resource-turtle.js';

/**
 * Issue 31 (DECISIONS.md §15) through the real app and its embedded repository: an EXPORT job writes a
 * BagIt bag of a collection with nested containers and binaries, which validates from its files alone, holds
 * each binary's bytes and each resource's metadata as in the repository and the scope's events as PREMIS,
 * and downloads as a tar and a zip that validate too; a binary rotten on disk fails the job, leaving no bag.
 */

const TITLE = `${NS.dcterms}title`;

describe('EXPORT jobs (BagIt) on the embedded repository', () => {
  let site: SheetSite;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-bags-'));

  beforeAll(async () => {
    site = await embeddedSite();
  });
  afterAll(async () => {
    await site.t.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  const titled = (title: string) => [{ predicate: TITLE, object: literal(title, 'en') }];
  const upload = (parent: string, filename: string, bytes: Buffer) =>
    site.adapter.uploadBinary(parent, {
      content: Readable.from([bytes]),
      filename,
      contentType: 'application/octet-stream',
    });

  async function exportJob(contextUri: string, scope = 'SUBTREE', token = site.curator.token) {
    const job = payloadOf(
      await sendJson(
        site.t.app,
        'POST',
        '/curation-job',
        { repositoryViewId: site.viewId, contextUri, scope, kind: 'EXPORT', format: 'BAGIT' },
        { token },
      ),
    ).CurationJob as { id: number; format: string; dryRun: boolean };
    return { ...job, ...(await jobUntil(site, job.id, ['COMPLETED', 'FAILED'], token)) };
  }

  const bagOf = (id: number) => path.join(site.t.config.dataDir, 'exports', String(id));

  async function download(id: number, format: 'tar' | 'zip', token = site.curator.token) {
    return site.t.app.inject({
      method: 'GET',
      url: `/curation-job/${id}/download${format === 'zip' ? '?format=zip' : ''}`,
      headers: { authorization: `Bearer ${token}` },
    });
  }

  /** The statements of a Turtle file, as N-Triples lines (sorted). */
  function statementsOf(turtle: string, base: string): string[] {
    const writer = new N3.Writer({ format: 'N-Triples' });
    return new N3.Parser({ baseIRI: base })
      .parse(turtle)
      .map((q) => writer.quadToString(q.subject, q.predicate, q.object).trim())
      .sort();
  }

  it('writes a bag of a nested collection that validates and holds what the repository holds', async () => {
    const col = await site.adapter.createChild(site.rootUri, titled('Letters'));
    const box = await site.adapter.createChild(col, titled('Box 1'));
    const folder = await site.adapter.createChild(box, titled('Folder 1 / draft'));
    const contents = new Map<string, Buffer>([
      [await upload(col, 'finding aid.txt', Buffer.from('A finding aid\n')), Buffer.from('A finding aid\n')],
    ]);
    const scan = randomBytes(300_000);
    contents.set(await upload(folder, 'scan.bin', scan), scan);
    const note = Buffer.from('ünïcödé note');
    contents.set(await upload(box, 'note.txt', note), note);
    const containers = [col, box, folder];

    const job = await exportJob(col);
    expect(job.state, job.message ?? '').toBe('COMPLETED');
    expect(job.format).toBe('BAGIT');
    expect(job.dryRun).toBe(false);
    expect(job.message).toMatch(/^6 resources exported; a bag of 9 files, \d+ octets$/);

    const bag = bagOf(job.id);
    const validation = await validateBag(bag);
    expect(validation.problems).toEqual([]);
    // One metadata file per resource, and each binary's bytes: nothing more, nothing less.
    const expected = [
      ...[...containers, ...contents.keys()].map(
        (uri) => `${resourceDirectory(uri, col, site.rootUri)}/${METADATA_FILE}`,
      ),
      ...[...contents.keys()].map((uri) => binaryFile(resourceDirectory(uri, col, site.rootUri), uri)),
    ].sort();
    expect(validation.payload).toEqual(expected);
    expect(expected).toContain(`data/${METADATA_FILE}`);

    for (const [uri, bytes] of contents) {
      const file = binaryFile(resourceDirectory(uri, col, site.rootUri), uri);
      expect(fs.readFileSync(path.join(bag, file)).equals(bytes)).toBe(true);
    }
    const writer = new N3.Writer({ format: 'N-Triples' });
    for (const uri of [...containers, ...contents.keys()]) {
      const turtle = fs.readFileSync(
        path.join(bag, resourceDirectory(uri, col, site.rootUri), METADATA_FILE),
        'utf8',
      );
      const described = userQuads((await site.adapter.describe(uri)).quads)
        .map((q) => writer.quadToString(q.subject, q.predicate, q.object).trim())
        .sort();
      expect(statementsOf(turtle, uri)).toEqual(described);
    }
    // The view's schemas name the predicates.
    expect(fs.readFileSync(path.join(bag, 'data', METADATA_FILE), 'utf8')).toContain('dcterms:title');

    const info = fs.readFileSync(path.join(bag, 'bag-info.txt'), 'utf8');
    expect(info).toContain('Source-Organization: Scriptorium\n');
    expect(info).toMatch(/^Bagging-Date: \d{4}-\d{2}-\d{2}$/m);
    expect(info).toContain(`External-Identifier: ${col}\n`);
    expect(info).toMatch(/^Bag-Software-Agent: Scriptorium \d+\.\d+\.\d+/m);

    const premis = new DOMParser().parseFromString(
      fs.readFileSync(path.join(bag, 'premis.xml'), 'utf8'),
      'application/xml',
    );
    const objects = Array.from(
      premis.getElementsByTagNameNS('http://www.loc.gov/premis/v3', 'objectIdentifierValue'),
    ).map((node) => node.textContent);
    for (const uri of [...containers, ...contents.keys()]) expect(objects).toContain(uri);
    expect(
      premis.getElementsByTagNameNS('http://www.loc.gov/premis/v3', 'event').length,
    ).toBeGreaterThanOrEqual(6);

    for (const format of ['tar', 'zip'] as const) {
      const response = await download(job.id, format);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toBe(`attachment; filename="bag-${job.id}.${format}"`);
      const into = fs.mkdtempSync(path.join(scratch, `${format}-`));
      const names = await (format === 'tar' ? extractTar : extractZip)(response.rawPayload, into);
      expect(names.every((name) => name.startsWith(`bag-${job.id}/`))).toBe(true);
      const extracted = await validateBag(path.join(into, `bag-${job.id}`));
      expect(extracted.problems).toEqual([]);
      expect(extracted.payload).toEqual(expected);
    }

    // A copy with one payload byte changed no longer validates, and the validator names the file.
    const copy = path.join(scratch, 'tampered');
    fs.cpSync(bag, copy, { recursive: true });
    const scanFile = binaryFile(
      resourceDirectory([...contents.keys()][1] ?? '', col, site.rootUri),
      [...contents.keys()][1] ?? '',
    );
    const tampered = fs.readFileSync(path.join(copy, scanFile));
    tampered[1000] = (tampered[1000] ?? 0) ^ 0x01;
    fs.writeFileSync(path.join(copy, scanFile), tampered);
    const problems = (await validateBag(copy)).problems;
    expect(problems).toContain(`${scanFile} does not match its digest in manifest-sha256.txt`);
    expect(problems).toContain(`${scanFile} does not match its digest in manifest-sha512.txt`);
  });

  it('fails naming a binary whose bytes no longer match the digest the repository holds, and keeps no bag', async () => {
    const col = await site.adapter.createChild(site.rootUri, titled('Rotting'));
    await upload(col, 'sound.txt', Buffer.from('these bytes stay as they are'));
    const rotten = await upload(col, 'rotten.txt', Buffer.from('these bytes are about to rot'));
    const digest = (await site.adapter.describe(rotten)).quads
      .map((q) => q.object.value)
      .find((value) => value.startsWith('urn:sha-512:'));
    const hex = (digest ?? '').slice('urn:sha-512:'.length);
    const stored = path.join(site.t.config.dataDir, 'binaries', hex.slice(0, 2), hex.slice(2, 4), hex);
    const bytes = fs.readFileSync(stored);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    fs.writeFileSync(stored, bytes);

    const job = await exportJob(col);
    expect(job.state).toBe('FAILED');
    expect(job.message).toContain(rotten);
    expect(fs.existsSync(bagOf(job.id))).toBe(false);
    expect(fs.existsSync(`${bagOf(job.id)}.partial`)).toBe(false);
    const refused = body(await download(job.id, 'tar'));
    expect(refused.meta.status).toBe('INVALID');
    expect(JSON.stringify(refused.payload)).toContain('its bag can be downloaded once the job is COMPLETED');
  });

  it('refuses an EXPORT job without a format, with operators or as a dry run, and a format on another kind', async () => {
    const base = { repositoryViewId: site.viewId, contextUri: '', scope: 'SUBTREE' };
    const refusal = async (job: Record<string, unknown>) => {
      const envelope = body(await sendJson(site.t.app, 'POST', '/curation-job', { ...base, ...job }));
      expect(envelope.meta.status).toBe('INVALID');
      return JSON.stringify(envelope.payload);
    };
    expect(await refusal({ kind: 'EXPORT' })).toContain('An EXPORT job requires a format (BAGIT)');
    expect(await refusal({ kind: 'EXPORT', format: 'ZIP' })).toContain(
      "An EXPORT job's format must be one of BAGIT",
    );
    expect(await refusal({ kind: 'EXPORT', format: 'BAGIT', operators: [1] })).toContain(
      'An EXPORT job takes no operators',
    );
    expect(await refusal({ kind: 'EXPORT', format: 'BAGIT', dryRun: true })).toContain(
      'An EXPORT job does not preview: its dryRun must be false',
    );
    expect(await refusal({ kind: 'FIXITY', format: 'BAGIT' })).toContain(
      'Only an EXPORT job takes a format, not a FIXITY job',
    );
  });

  it('downloads only a COMPLETED EXPORT job, to whoever may read the job, while its bag is there', async () => {
    const col = await site.adapter.createChild(site.rootUri, titled('Small'));
    const job = await exportJob(col, 'RESOURCE');
    expect(job.state).toBe('COMPLETED');
    // A curator of another view: the job does not exist for them.
    const stranger = await download(job.id, 'tar', site.stranger.token);
    expect(stranger.statusCode).toBe(404);
    expect(stranger.body).toContain(`CurationJob with id ${job.id} does not exist`);
    const fixity = payloadOf(
      await sendJson(site.t.app, 'POST', '/curation-job', {
        repositoryViewId: site.viewId,
        contextUri: col,
        scope: 'RESOURCE',
        kind: 'FIXITY',
      }),
    ).CurationJob as { id: number };
    await jobUntil(site, fixity.id, ['COMPLETED', 'FAILED'], site.curator.token);
    const notExport = body(await download(fixity.id, 'tar'));
    expect(notExport.meta.status).toBe('INVALID');
    expect(JSON.stringify(notExport.payload)).toContain('only an EXPORT job has a bag to download');
    const badFormat = body(
      await site.t.app.inject({
        method: 'GET',
        url: `/curation-job/${job.id}/download?format=rar`,
        headers: { authorization: `Bearer ${site.curator.token}` },
      }),
    );
    expect(JSON.stringify(badFormat)).toContain('The query parameter format must be tar or zip');
    fs.rmSync(bagOf(job.id), { recursive: true });
    const gone = await download(job.id, 'zip');
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain(`The bag of curation job ${job.id} is no longer on the server`);
  });

  it('scriptorium export-bag starts the job, follows it and downloads a bag that validates', async () => {
    const col = await site.adapter.createChild(site.rootUri, titled('By the command line'));
    await upload(col, 'page.txt', Buffer.from('a page'));
    const output: string[] = [];
    const io = {
      env: { SCRIPTORIUM_TOKEN: site.curator.token },
      fetch,
      readPassword: () => Promise.resolve(''),
      write: (text: string) => {
        output.push(text);
      },
      interactive: false,
      pollMs: 20,
      onInterrupt: () => undefined,
    };
    const server = site.rootUri.replace(/\/rest\/$/, '');
    for (const zip of [false, true]) {
      const file = path.join(scratch, zip ? 'cli.zip' : 'cli.tar');
      const code = await runExportBagCommand(
        [String(site.viewId), col, file, '--server', server, ...(zip ? ['--zip'] : [])],
        io,
      );
      expect(code, output.join('')).toBe(0);
      const into = fs.mkdtempSync(path.join(scratch, 'cli-'));
      await (zip ? extractZip : extractTar)(fs.readFileSync(file), into);
      const [root] = fs.readdirSync(into);
      expect(root).toMatch(/^bag-\d+$/);
      const validation = await validateBag(path.join(into, root ?? ''));
      expect(validation.problems).toEqual([]);
      expect(validation.payload).toHaveLength(3);
    }
    expect(output.join('')).toMatch(/Job \d+ COMPLETED: 2 resources exported; a bag of 3 files/);
    // A refusal is told, and nothing is written.
    const refused = await runExportBagCommand(
      [String(site.viewId), 'http://elsewhere.example/x', path.join(scratch, 'no.tar'), '--server', server],
      io,
    );
    expect(refused).toBe(1);
    expect(fs.existsSync(path.join(scratch, 'no.tar'))).toBe(false);
  });
});
