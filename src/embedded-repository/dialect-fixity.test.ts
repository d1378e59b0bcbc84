import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { testDialect } from '../../test/support/test-database.js';
import type { TestApp } from '../../test/support/test-app.js';
import { BASE, buildRepositoryApp, graphOf, NS, repo } from '../../test/support/repository-client.js';

/** fcr:fixity as Fedora 4.x and 5.x report it (fedora-api.md §1.5): SHA-1, SUCCESS/BAD_CHECKSUM/BAD_SIZE. */
const XSD_LONG = 'http://www.w3.org/2001/XMLSchema#long';
const sha = (algorithm: string, data: Buffer | string) => createHash(algorithm).update(data).digest('hex');

describe.each<FedoraDialect>(['FEDORA_4', 'FEDORA_5'])(`fixity as %s (${testDialect})`, (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildRepositoryApp({ repositoryDialect: dialect });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Where the binary store keeps content (named by its SHA-512, see binaries/binary-store.ts). */
  const fileOf = (content: string) => {
    const hex = sha('sha512', content);
    return path.join(t.config.dataDir, 'binaries', hex.slice(0, 2), hex.slice(2, 4), hex);
  };

  async function upload(p: string, body: string): Promise<void> {
    const response = await repo(t.app, 'PUT', p, { headers: { 'content-type': 'text/plain' }, body });
    expect(response.statusCode).toBe(201);
  }

  async function fixityOf(p: string) {
    const response = await repo(t.app, 'GET', `${p}/fcr:fixity`);
    expect(response.statusCode).toBe(200);
    const graph = graphOf(response);
    const results = graph.getObjects(`${BASE}${p}`, `${NS.premis}hasFixity`, null);
    expect(results).toHaveLength(1);
    const result = results[0]?.value ?? '';
    const values = (name: string) => graph.getObjects(result, `${NS.premis}${name}`, null);
    const [size] = values('hasSize');
    return {
      result,
      types: graph.getObjects(result, `${NS.rdf}type`, null).map((o) => o.value),
      outcome: values('hasEventOutcome').map((o) => o.value),
      digests: values('hasMessageDigest').map((o) => `${o.termType}:${o.value}`),
      algorithm: values('hasMessageDigestAlgorithm').map((o) => o.value),
      size: size?.termType === 'Literal' ? `${size.value}^^${size.datatype.value}` : '',
    };
  }

  it('reports SUCCESS with the SHA-1 of the bytes, its algorithm and the size, at <bin>#fixity/<epoch-ms>', async () => {
    const before = Date.now();
    await upload('/fx-ok', 'intact bytes');
    const fixity = await fixityOf('/fx-ok');
    const stamp = Number(fixity.result.slice(`${BASE}/fx-ok#fixity/`.length));
    expect(fixity.result.startsWith(`${BASE}/fx-ok#fixity/`)).toBe(true);
    expect(stamp).toBeGreaterThanOrEqual(before);
    expect(fixity.types).toEqual(
      expect.arrayContaining([`${NS.premis}Fixity`, `${NS.premis}EventOutcomeDetail`]),
    );
    expect(fixity.outcome).toEqual(['SUCCESS']);
    expect(fixity.digests).toEqual([`NamedNode:urn:sha1:${sha('sha1', 'intact bytes')}`]);
    expect(fixity.algorithm).toEqual(['SHA-1']);
    expect(fixity.size).toBe(`12^^${XSD_LONG}`);
  });

  it('reports BAD_CHECKSUM and the SHA-1 of what is on disk now when the file was corrupted', async () => {
    await upload('/fx-rot', 'about to rot');
    const file = fileOf('about to rot');
    const bytes = fs.readFileSync(file);
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const fixity = await fixityOf('/fx-rot');
    expect(fixity.outcome).toEqual(['BAD_CHECKSUM']);
    expect(fixity.digests).toEqual([`NamedNode:urn:sha1:${sha('sha1', bytes)}`]);
    expect(fixity.size).toBe(`12^^${XSD_LONG}`);
  });

  it('reports BAD_SIZE with the size found when the file was truncated', async () => {
    await upload('/fx-short', 'will be cut');
    fs.truncateSync(fileOf('will be cut'), 4);
    const fixity = await fixityOf('/fx-short');
    expect(fixity.outcome).toEqual(['BAD_SIZE']);
    expect(fixity.digests).toEqual([`NamedNode:urn:sha1:${sha('sha1', 'will')}`]);
    expect(fixity.size).toBe(`4^^${XSD_LONG}`);
  });

  it('is 404 for a container', async () => {
    expect((await repo(t.app, 'PUT', '/fx-container')).statusCode).toBe(201);
    expect((await repo(t.app, 'GET', '/fx-container/fcr:fixity')).statusCode).toBe(404);
  });
});
