import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAdapter } from '../../../src/repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import { resolveRepositoryCredentials } from '../../../src/embedded-repository/credentials.js';
import { buildTestApp, type TestApp } from '../test-app.js';
import { listenWithEmbeddedView } from '../embedded-view.js';
import { copyCollection } from './collection.js';
import { compareTrees, expectedTargetUri } from './compare-trees.js';
import {
  DCTERMS,
  EBUCORE_FILENAME,
  deleteData,
  expectOk,
  insertData,
  treeIris,
  writeTree,
  type RawRepository,
} from './tree-fixture.js';

/**
 * The comparison walk of COPY jobs' acceptance test, tried on copies made by hand: an exact copy (on the
 * same embedded repository, and on Community Solid Server, whose own statements and trailing slashes the
 * walk must see past) compares equal; a copy with real differences — a title in another language, a link
 * not rewritten, other bytes, a stray duplicate, a missing binary, a missing `prov:wasDerivedFrom` — is
 * reported, each difference at its resource and nothing else.
 */
let t: TestApp;
let fedora: RawRepository;
let fedoraAdapter: RepositoryAdapter;
let root: string;
const css: RawRepository = { kind: 'LDP', headers: {} };
let cssAdapter: RepositoryAdapter;
let cssRoot: string;

beforeAll(async () => {
  t = await buildTestApp();
  const view = await listenWithEmbeddedView(t);
  root = view.rootUri;
  const { username, password } = resolveRepositoryCredentials(t.config);
  fedora = {
    kind: 'FEDORA',
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
  };
  fedoraAdapter = createAdapter({ type: 'FEDORA', rootUri: root, username, password, dialect: 'FEDORA_6' });
  cssRoot = inject('cssBaseUrl');
  cssAdapter = createAdapter({ type: 'LDP', rootUri: cssRoot });
});

afterAll(async () => {
  await t.close();
});

/** A fresh container to write a tree in. */
async function holder(repository: RawRepository, base: string, name: string): Promise<string> {
  const uri = repository.kind === 'LDP' ? `${base}${name}/` : `${base}${name}`;
  await expectOk(
    'PUT',
    uri,
    {
      ...repository.headers,
      'content-type': 'text/turtle',
      link: '<http://www.w3.org/ns/ldp#BasicContainer>; rel="type"',
    },
    '',
  );
  return uri;
}

describe('the comparison walk of copied trees', () => {
  const tree = copyCollection('Nachlass A', {
    series: 2,
    objectsPerSeries: 2,
    binaryBytes: 3000,
    outside: 'http://127.0.0.1:1/rest/outside',
  });

  it('finds an exact copy equal, on Fedora and on CSS, and says what it compared', async () => {
    const source = await holder(fedora, root, `walk-src-${randomUUID()}`);
    const sourceIri = treeIris('FEDORA', source, tree);
    const sourceRoot = await writeTree(fedora, source, tree);
    for (const [repository, adapter, base] of [
      [fedora, fedoraAdapter, root],
      [css, cssAdapter, cssRoot],
    ] as const) {
      const target = await holder(repository, base, `walk-copy-${randomUUID()}`);
      const copyRoot = await writeTree(repository, target, tree, { derivedFrom: sourceIri });
      expect(copyRoot).toBe(expectedTargetUri(target, sourceRoot, [], repository.kind, false));
      const result = await compareTrees(
        { adapter: fedoraAdapter, uri: sourceRoot },
        { adapter, uri: target },
      );
      expect(result.differences, repository.kind).toEqual([]);
      // The collection, two series, four objects; four binaries of 3000 bytes.
      expect(result).toMatchObject({ containers: 7, binaries: 4, bytes: 12_000 });
      expect(result.triples).toBeGreaterThan(40);
      if (repository.kind !== 'LDP') continue;
      // On CSS a binary's filename lives in its description: one dropped there is a difference.
      const scan = treeIris('LDP', target, tree)('series-1/object-2/scan');
      await deleteData(css, `${scan}.meta`, `<${scan}> <${EBUCORE_FILENAME}> "letter-1-2.tif" .`);
      const after = await compareTrees({ adapter: fedoraAdapter, uri: sourceRoot }, { adapter, uri: target });
      expect(after.differences).toEqual([
        `${sourceIri('series-1/object-2/scan')} → ${scan}: filename undefined on the copy, letter-1-2.tif on the source`,
      ]);
    }
  }, 60_000);

  it('reports each real difference at its resource, and only those', async () => {
    const source = await holder(fedora, root, `walk-src-${randomUUID()}`);
    const sourceIri = treeIris('FEDORA', source, tree);
    const sourceRoot = await writeTree(fedora, source, tree);
    const target = await holder(fedora, root, `walk-copy-${randomUUID()}`);
    const copyIri = treeIris('FEDORA', target, tree);
    await writeTree(fedora, target, tree, { derivedFrom: sourceIri });

    const object1 = copyIri('series-1/object-1');
    const object2 = copyIri('series-1/object-2');
    // A German title become English.
    await deleteData(fedora, object1, `<${object1}> <${DCTERMS}title> "Brief 1.1"@de .`);
    await insertData(fedora, object1, `<${object1}> <${DCTERMS}title> "Brief 1.1"@en .`);
    // A link left pointing at the source.
    await deleteData(fedora, object1, `<${object1}> <${DCTERMS}relation> <${object2}> .`);
    await insertData(
      fedora,
      object1,
      `<${object1}> <${DCTERMS}relation> <${sourceIri('series-1/object-2')}> .`,
    );
    // Other bytes in a binary.
    await expectOk(
      'PUT',
      copyIri('series-1/object-1/scan'),
      {
        ...fedora.headers,
        'content-type': 'image/tiff',
        'content-disposition': 'attachment; filename="letter-1-1.tif"',
      },
      randomBytes(3000),
    );
    // A stray duplicate of an object.
    await writeTree(fedora, copyIri('series-1'), { name: 'object-1-again', statements: () => '' });
    // A binary missing.
    await expectOk('DELETE', copyIri('Übersicht 2/object-1/scan'), fedora.headers);
    // No derivation on a series.
    const series2 = copyIri('Übersicht 2');
    await deleteData(
      fedora,
      series2,
      `<${series2}> <http://www.w3.org/ns/prov#wasDerivedFrom> <${sourceIri('Übersicht 2')}> .`,
    );

    const result = await compareTrees(
      { adapter: fedoraAdapter, uri: sourceRoot },
      { adapter: fedoraAdapter, uri: target },
    );
    const lines = result.differences;
    const about = (uri: string) =>
      lines.filter((line) => line.startsWith(`${uri} → `) || line.startsWith(`${uri}: `));
    const at = (path: string) => about(sourceIri(path));
    const where1 = `${sourceIri('series-1/object-1')} → ${object1}: <${object1}> <${DCTERMS}`;
    expect(at('series-1/object-1').sort()).toEqual(
      [
        `${where1}relation> <${object2}> is on the source 1×, on the copy 0×`,
        `${where1}title> "Brief 1.1"@de is on the source 1×, on the copy 0×`,
        `${where1}relation> <${sourceIri('series-1/object-2')}> is on the copy 1×, not on the source`,
        `${where1}title> "Brief 1.1"@en is on the copy 1×, not on the source`,
      ].sort(),
    );
    expect(at('series-1/object-1/scan')).toHaveLength(1);
    expect(at('series-1/object-1/scan')[0]).toMatch(
      /: SHA-256 [0-9a-f]{64} on the copy, [0-9a-f]{64} on the source$/,
    );
    expect(at('series-1')).toEqual([
      `${sourceIri('series-1')} → ${copyIri('series-1')}: holds ${copyIri('series-1')}/object-1-again, which copies nothing of the source`,
    ]);
    expect(at('Übersicht 2/object-1')).toEqual([
      `${sourceIri('Übersicht 2/object-1')} → ${copyIri('Übersicht 2/object-1')}: holds ${copyIri('Übersicht 2/object-1/scan')} 0 times, not once`,
    ]);
    expect(about(copyIri('Übersicht 2/object-1/scan'))).toHaveLength(1);
    expect(about(copyIri('Übersicht 2/object-1/scan'))[0]).toContain('the copy of');
    expect(at('Übersicht 2')).toEqual([
      `${sourceIri('Übersicht 2')} → ${series2}: carries <${series2}> <http://www.w3.org/ns/prov#wasDerivedFrom> <${sourceIri('Übersicht 2')}> 0 times, not once`,
    ]);
    // Nothing else differs.
    expect(lines).toHaveLength(4 + 1 + 1 + 1 + 1 + 1);
  }, 60_000);
});
