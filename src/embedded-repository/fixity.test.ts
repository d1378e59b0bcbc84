import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import {
  BASE,
  buildRepositoryApp,
  graphOf,
  NS,
  objects,
  repo,
} from '../../test/support/repository-client.js';

/** fcr:fixity re-reads the stored bytes (Fedora's premis shape); Want-Digest is computed fresh too. */
let t: TestApp;
beforeAll(async () => {
  t = await buildRepositoryApp();
});
afterAll(async () => {
  await t.close();
});

function fixityOf(response: Awaited<ReturnType<typeof repo>>, binary: string) {
  const graph = graphOf(response);
  const [result] = graph.getObjects(binary, `${NS.premis}hasFixity`, null);
  if (result === undefined) throw new Error(`no premis:hasFixity in ${response.body}`);
  return {
    outcome: graph.getObjects(result, `${NS.premis}hasEventOutcome`, null).map((o) => o.value),
    digests: graph.getObjects(result, `${NS.premis}hasMessageDigest`, null).map((o) => o.value),
    size: graph.getObjects(result, `${NS.premis}hasSize`, null).map((o) => o.value),
    types: graph.getObjects(result, `${NS.rdf}type`, null).map((o) => o.value),
  };
}

async function storedFile(p: string): Promise<string> {
  const description = await repo(t.app, 'GET', `${p}/fcr:metadata`);
  const digest = objects(description, `${BASE}${p}`, `${NS.premis}hasMessageDigest`).find((d) =>
    d.startsWith('urn:sha-512:'),
  );
  const hex = (digest ?? '').slice('urn:sha-512:'.length);
  return path.join(t.config.dataDir, 'binaries', hex.slice(0, 2), hex.slice(2, 4), hex);
}

describe(`fixity (${testDialect})`, () => {
  it('reports SUCCESS with the SHA-512 and SHA-256 digests and the size', async () => {
    await repo(t.app, 'PUT', '/fix-ok', { headers: { 'content-type': 'text/plain' }, body: 'intact' });
    const response = await repo(t.app, 'GET', '/fix-ok/fcr:fixity');
    expect(response.statusCode).toBe(200);
    const fixity = fixityOf(response, `${BASE}/fix-ok`);
    expect(fixity.outcome).toEqual(['SUCCESS']);
    expect(fixity.size).toEqual(['6']);
    expect(fixity.types).toEqual(
      expect.arrayContaining([`${NS.premis}Fixity`, `${NS.premis}EventOutcomeDetail`]),
    );
    expect(fixity.digests.sort()).toEqual(
      objects(
        await repo(t.app, 'GET', '/fix-ok/fcr:metadata'),
        `${BASE}/fix-ok`,
        `${NS.premis}hasMessageDigest`,
      ).sort(),
    );
  });

  it('reports BAD_CHECKSUM when the stored file was corrupted on disk, and Want-Digest shows the new digest', async () => {
    await repo(t.app, 'PUT', '/fix-bad', { headers: { 'content-type': 'text/plain' }, body: 'about to rot' });
    const before = (await repo(t.app, 'GET', '/fix-bad', { headers: { 'want-digest': 'sha-256' } })).headers
      .digest;
    const file = await storedFile('/fix-bad');
    const bytes = fs.readFileSync(file);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const fixity = fixityOf(await repo(t.app, 'GET', '/fix-bad/fcr:fixity'), `${BASE}/fix-bad`);
    expect(fixity.outcome).toEqual(['BAD_CHECKSUM']);
    expect(fixity.size).toEqual(['12']);
    const after = (await repo(t.app, 'GET', '/fix-bad', { headers: { 'want-digest': 'sha-256' } })).headers
      .digest;
    expect(after).not.toBe(before);
  });

  it('reports BAD_SIZE when the stored file was truncated', async () => {
    await repo(t.app, 'PUT', '/fix-short', {
      headers: { 'content-type': 'text/plain' },
      body: 'will be cut',
    });
    fs.truncateSync(await storedFile('/fix-short'), 4);
    expect(fixityOf(await repo(t.app, 'GET', '/fix-short/fcr:fixity'), `${BASE}/fix-short`).outcome).toEqual([
      'BAD_SIZE',
    ]);
  });

  it('is 404 for containers and read-only (405)', async () => {
    await repo(t.app, 'PUT', '/fix-container');
    expect((await repo(t.app, 'GET', '/fix-container/fcr:fixity')).statusCode).toBe(404);
    await repo(t.app, 'PUT', '/fix-ro', { headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect((await repo(t.app, 'PUT', '/fix-ro/fcr:fixity')).statusCode).toBe(405);
  });
});
