import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Quad } from '@rdfjs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapter } from '../../src/repository-adapters/create-adapter.js';
import { literal, namedNode, quad } from '../../src/linked-data/rdf/terms.js';
import type {
  RepositoryAdapter,
  RepositoryKind,
  ResourceDescription,
} from '../../src/repository-adapters/repository-adapter.js';
import {
  REPOSITORY_KIND_DECLARATIONS,
  capabilitiesOf,
  featuresFrom,
  featuresOf,
  requireFacet,
} from '../../src/repository-adapters/repository-kinds.js';
import type {
  RepositoryHttpClient,
  RepositoryHttpClientOptions,
} from '../../src/repository-adapters/repository-http-client.js';
import { BadRequestError, CapabilityUnsupportedError, UpstreamFailedError } from '../../src/shared/errors.js';
import { startStubServers, type StubServers } from './stub-servers.js';

/** A repository view as the adapters take it. */
export interface ContractView {
  readonly rootUri: string;
  readonly username: string | null;
  readonly password: string | null;
}

/** A running repository to hold the contract against. */
export interface ContractTarget {
  readonly view: ContractView;
  /**
   * The same server with credentials it refuses. Absent for servers that do not check HTTP Basic
   * credentials (Community Solid Server); the suite then uses a loopback stub that refuses every request.
   */
  readonly wrongCredentials?: ContractView;
  close(): Promise<void>;
}

export interface ContractSetup {
  readonly kind: RepositoryKind;
  start(): Promise<ContractTarget>;
}

const DCT = 'http://purl.org/dc/terms/';
const EX = 'http://example.org/contract#';
const TITLE = `${DCT}title`;
const NOTE = `${EX}note`;
const RELATED = `${EX}related`;
const COUNT = `${EX}count`;
const XSD_INTEGER = 'http://www.w3.org/2001/XMLSchema#integer';
const EVIL = 'x" } ; DELETE WHERE { ?s ?p ?o } ; INSERT DATA { <a> <b> "y';

function declarationOf(kind: RepositoryKind) {
  const declaration = REPOSITORY_KIND_DECLARATIONS.find((d) => d.kind === kind);
  if (declaration === undefined) throw new Error(`No declaration for ${kind}`);
  return declaration;
}

type Adapter = RepositoryAdapter & { readonly client: RepositoryHttpClient };

/** Statements the suite writes (its own predicates about `uri`), as sorted N-Triples-like keys. */
function ours(description: ResourceDescription, uri = description.uri): string[] {
  return description.quads
    .filter(
      (q) => q.subject.value === uri && (q.predicate.value.startsWith(EX) || q.predicate.value === TITLE),
    )
    .map(key)
    .sort();
}

function key(q: Quad): string {
  const o = q.object;
  const object =
    o.termType === 'Literal'
      ? `"${o.value}"${o.language === '' ? (o.datatype.value.endsWith('#string') ? '' : `^^${o.datatype.value}`) : `@${o.language}`}`
      : `<${o.value}>`;
  return `<${q.predicate.value}> ${object}`;
}

function sha(algorithm: 'sha256' | 'sha512', data: Buffer): string {
  return createHash(algorithm).update(data).digest('hex');
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/** `run` may throw at once (an absent facet) or reject: both count. */
async function expectUnsupported(
  run: () => Promise<unknown>,
  feature: string,
  kind: RepositoryKind,
): Promise<void> {
  const error: unknown = await Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(CapabilityUnsupportedError);
  expect((error as CapabilityUnsupportedError).feature).toBe(feature);
  expect((error as Error).message).toBe(`The ${kind} repository does not support ${feature}`);
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/**
 * The adapter contract: one suite of behaviours every `RepositoryAdapter` must show against a real
 * server of its kind. A capability the kind lacks (per its `features`) is asserted to fail cleanly with a
 * CapabilityUnsupportedError naming the feature — never skipped.
 */
export function describeRepositoryAdapter(name: string, setup: ContractSetup): void {
  const { kind } = setup;
  const declaration = declarationOf(kind);
  const features = featuresFrom(declaration.capabilities);

  describe(name, () => {
    let target: ContractTarget;
    let stubs: StubServers;
    /** A container for this run; every test works below it. */
    let workspace: string;

    const adapterFor = (view: ContractView, options: RepositoryHttpClientOptions = {}): Adapter =>
      createAdapter({ type: kind, ...view }, options);
    const adapter = (options: RepositoryHttpClientOptions = {}): Adapter => adapterFor(target.view, options);
    const secret = (): string | null => target.view.password;

    beforeAll(async () => {
      target = await setup.start();
      stubs = await startStubServers(2_000);
      workspace = await adapter().createChild(target.view.rootUri, [
        { predicate: TITLE, object: literal(`contract ${randomUUID()}`) },
      ]);
    }, 60_000);

    afterAll(async () => {
      await stubs.close();
      await target.close();
    });

    it(`provides exactly the facets the ${kind} declaration lists`, () => {
      expect(adapter().kind).toBe(kind);
      expect(capabilitiesOf(adapter()).sort()).toEqual([...declaration.capabilities].sort());
      expect(featuresOf(adapter())).toEqual(features);
      expect(Object.keys(featuresOf(adapter())).sort()).toEqual([
        'fixity',
        'queryable',
        'transacting',
        'verifying',
        'versioning',
      ]);
    });

    describe('reading and writing resources', () => {
      it('describes the root: a container listing its children, without a parent', async () => {
        const a = adapter();
        const root = await a.describe(target.view.rootUri);
        expect(root.uri).toBe(a.client.rootUri);
        expect(root.isBinary).toBe(false);
        expect(root.parent).toBeUndefined();
        expect(root.children).toContain(workspace);
        expect(a.client.requestCount).toBe(1);
      });

      it('creates one child carrying the statements and reads them back', async () => {
        const a = adapter();
        const child = await a.createChild(workspace, [
          { predicate: TITLE, object: literal('Cap Test') },
          { predicate: TITLE, object: literal('bonjour', 'fr') },
          { predicate: COUNT, object: literal('5', namedNode(XSD_INTEGER)) },
          { predicate: RELATED, object: namedNode('http://example.org/elsewhere') },
          { predicate: NOTE, object: literal('line one\nline "two" \\ three') },
        ]);
        expect(child.startsWith(a.client.rootUri)).toBe(true);
        expect(a.client.requestCount).toBe(kind === 'FEDORA' ? 1 : 3);
        const described = await a.describe(child);
        expect(described.uri).toBe(child);
        expect(described.isBinary).toBe(false);
        expect(described.parent).toBe(workspace);
        expect(described.children).toEqual([]);
        expect(ours(described)).toEqual(
          [
            `<${TITLE}> "Cap Test"`,
            `<${TITLE}> "bonjour"@fr`,
            `<${COUNT}> "5"^^${XSD_INTEGER}`,
            `<${RELATED}> <http://example.org/elsewhere>`,
            `<${NOTE}> "line one\nline "two" \\ three"`,
          ].sort(),
        );
        expect((await a.describe(workspace)).children).toContain(child);
      });

      it('creates a child without statements', async () => {
        const a = adapter();
        const child = await a.createChild(workspace, []);
        const described = await a.describe(child);
        expect(ours(described)).toEqual([]);
        expect(described.parent).toBe(workspace);
      });

      it('removes and adds statements in one update, one request after a describe', async () => {
        const a = adapter();
        const child = await a.createChild(workspace, [
          { predicate: TITLE, object: literal('old title') },
          { predicate: NOTE, object: literal('kept') },
        ]);
        const subject = namedNode(child);
        await a.describe(child);
        const before = a.client.requestCount;
        await a.updateTriples(
          child,
          [quad(subject, namedNode(TITLE), literal('old title'))],
          [
            quad(subject, namedNode(TITLE), literal('new title')),
            quad(subject, namedNode(NOTE), literal('added', 'en')),
          ],
        );
        expect(a.client.requestCount - before).toBe(1);
        expect(ours(await a.describe(child))).toEqual(
          [`<${TITLE}> "new title"`, `<${NOTE}> "kept"`, `<${NOTE}> "added"@en`].sort(),
        );
        // Nothing to change: no request at all.
        const idle = a.client.requestCount;
        await a.updateTriples(child, [], []);
        expect(a.client.requestCount).toBe(idle);
      });

      it('updates with a fresh adapter (finds where to write by itself)', async () => {
        const child = await adapter().createChild(workspace, [{ predicate: TITLE, object: literal('one') }]);
        await adapter().updateTriples(child, [], [quad(namedNode(child), namedNode(NOTE), literal('two'))]);
        expect(ours(await adapter().describe(child))).toEqual([`<${TITLE}> "one"`, `<${NOTE}> "two"`].sort());
      });

      it('adds a literal crafted to break out of the update as exactly that one literal', async () => {
        const a = adapter();
        const sibling = await a.createChild(workspace, [{ predicate: TITLE, object: literal('sibling') }]);
        const child = await a.createChild(workspace, [{ predicate: TITLE, object: literal('target') }]);
        const before = ours(await a.describe(child));
        await a.updateTriples(child, [], [quad(namedNode(child), namedNode(NOTE), literal(EVIL))]);
        const after = await a.describe(child);
        expect(ours(after)).toEqual([...before, `<${NOTE}> "${EVIL}"`].sort());
        expect(after.quads.filter((q) => q.object.value === EVIL)).toHaveLength(1);
        expect(after.quads.some((q) => q.subject.value === 'a' || q.subject.value.endsWith('/a'))).toBe(
          false,
        );
        // Nothing else was deleted.
        expect(ours(await a.describe(sibling))).toEqual([`<${TITLE}> "sibling"`]);
        expect((await a.describe(workspace)).children).toEqual(expect.arrayContaining([sibling, child]));
      });

      it('runs a SPARQL Update where <> is the resource', async () => {
        const a = adapter();
        const child = await a.createChild(workspace, [{ predicate: TITLE, object: literal('before') }]);
        await a.runUpdate(child, `PREFIX dct: <${DCT}>\nINSERT DATA { <> <${NOTE}> "via query" . }`);
        await a.runUpdate(
          child,
          `PREFIX dct: <${DCT}>\nDELETE { <> dct:title ?t } INSERT { <> dct:title "after" } WHERE { <> dct:title ?t }`,
        );
        expect(ours(await a.describe(child))).toEqual([`<${TITLE}> "after"`, `<${NOTE}> "via query"`].sort());
      });

      it(
        features.queryable && kind === 'FEDORA'
          ? 'runs updates with FILTER in WHERE'
          : 'refuses updates beyond basic graph patterns cleanly (FILTER)',
        async () => {
          const a = adapter();
          const child = await a.createChild(workspace, [{ predicate: TITLE, object: literal('filtered') }]);
          const update = `DELETE { <> <${TITLE}> ?t } WHERE { <> <${TITLE}> ?t FILTER(?t = "filtered") }`;
          if (kind === 'FEDORA') {
            await a.runUpdate(child, update);
            expect(ours(await a.describe(child))).toEqual([]);
          } else {
            const error = await rejection(a.runUpdate(child, update));
            expect(error).toBeInstanceOf(CapabilityUnsupportedError);
            expect(error.message).toContain('basic graph patterns');
          }
        },
      );

      it('refuses updates it must never send (LOAD, DROP, GRAPH) before any request', async () => {
        const a = adapter();
        for (const update of [
          'LOAD <http://example.org/x>',
          'DROP ALL',
          `INSERT DATA { GRAPH <${EX}g> { <${EX}a> <${EX}b> "c" } }`,
        ]) {
          expect(await rejection(a.runUpdate(workspace, update))).toBeInstanceOf(BadRequestError);
        }
        expect(
          await rejection(a.runUpdate(workspace, 'INSERT DATA { <> <x> "unterminated }')),
        ).toBeInstanceOf(BadRequestError);
        expect(a.client.requestCount).toBe(0);
      });

      it('deletes a container with everything in it', async () => {
        const a = adapter();
        const parent = await a.createChild(workspace, [{ predicate: TITLE, object: literal('doomed') }]);
        const child = await a.createChild(parent, [{ predicate: TITLE, object: literal('doomed child') }]);
        const grandchild = await a.createChild(child, []);
        const binary = await a.uploadBinary(parent, {
          content: Readable.from([Buffer.from('bytes')]),
          filename: 'doomed.txt',
          contentType: 'text/plain',
        });
        await a.delete(parent);
        for (const uri of [parent, child, grandchild, binary]) {
          const error = await rejection(a.describe(uri));
          expect(error).toBeInstanceOf(UpstreamFailedError);
          expect(error.message).toMatch(/answered (404 Not Found|410 Gone)/);
        }
        expect((await a.describe(workspace)).children).not.toContain(parent);
      });
    });

    describe('binaries', () => {
      it('uploads a stream and downloads it with its filename and content type', async () => {
        const a = adapter();
        const content = randomBytes(3 * 1024 * 1024 + 17);
        const filename = 'Été — résumé "final".txt';
        const chunks = [
          content.subarray(0, 1_000_000),
          content.subarray(1_000_000, 2_500_000),
          content.subarray(2_500_000),
        ];
        const uri = await a.uploadBinary(workspace, {
          content: Readable.from(chunks),
          filename,
          contentType: 'text/plain',
        });
        expect(uri.startsWith(a.client.rootUri)).toBe(true);
        const described = await a.describe(uri);
        expect(described.isBinary).toBe(true);
        expect(described.children).toEqual([]);
        expect(described.parent).toBe(workspace);
        expect((await a.describe(workspace)).children).toContain(uri);
        const download = await a.downloadBinary(uri);
        expect(download.contentType).toMatch(/^text\/plain/);
        expect(download.filename).toBe(filename);
        const bytes = await readAll(download.content);
        expect(bytes.length).toBe(content.length);
        expect(sha('sha256', bytes)).toBe(sha('sha256', content));
      });

      it("writes a binary's statements to its description", async () => {
        const a = adapter();
        const uri = await a.uploadBinary(workspace, {
          content: Readable.from([Buffer.from('{"a":1}')]),
          filename: 'data.json',
          contentType: 'application/octet-stream',
        });
        await adapter().updateTriples(
          uri,
          [],
          [quad(namedNode(uri), namedNode(TITLE), literal('A binary title'))],
        );
        const described = await adapter().describe(uri);
        expect(described.isBinary).toBe(true);
        expect(ours(described)).toEqual([`<${TITLE}> "A binary title"`]);
        const download = await adapter().downloadBinary(uri);
        expect((await readAll(download.content)).toString()).toBe('{"a":1}');
        expect(download.filename).toBe('data.json');
      });

      it('refuses to download a container as a binary', async () => {
        const error = await rejection(adapter().downloadBinary(workspace));
        expect(error).toBeInstanceOf(BadRequestError);
      });
    });

    describe('fixity', () => {
      it(
        features.fixity
          ? 'reports SUCCESS with the SHA-512 and the size'
          : 'fails cleanly: fixity is unsupported',
        async () => {
          const a = adapter();
          const content = Buffer.from('fixity check content\n');
          const uri = await a.uploadBinary(workspace, {
            content: Readable.from([content]),
            filename: 'f.txt',
            contentType: 'text/plain',
          });
          if (features.fixity) {
            const result = await requireFacet(a, 'fixity').check(uri);
            expect(result).toEqual({
              status: 'SUCCESS',
              messageDigest: `urn:sha-512:${sha('sha512', content)}`,
              size: String(content.length),
            });
            expect(await rejection(requireFacet(a, 'fixity').check(workspace))).toBeInstanceOf(
              UpstreamFailedError,
            );
          } else {
            const before = a.client.requestCount;
            await expectUnsupported(() => requireFacet(a, 'fixity').check(uri), 'fixity', kind);
            expect(a.client.requestCount).toBe(before);
          }
        },
      );
    });

    describe('transactions', () => {
      if (features.transacting) {
        it('begins, sees its own changes, hides them from others, commits', async () => {
          const a = adapter();
          const existing = await a.createChild(workspace, [{ predicate: TITLE, object: literal('outside') }]);
          const tx = await requireFacet(a, 'transactions').begin();
          expect(tx.id).toMatch(/^[A-Za-z0-9-]+$/);
          expect(tx.expiresAt).toBeGreaterThan(Date.now());
          expect(tx.expiresAt).toBeLessThan(Date.now() + 24 * 3_600_000);
          const child = await a.createChild(workspace, [{ predicate: TITLE, object: literal('in tx') }], tx);
          await a.updateTriples(
            existing,
            [],
            [quad(namedNode(existing), namedNode(NOTE), literal('tx note'))],
            tx,
          );
          expect(ours(await a.describe(child, tx))).toEqual([`<${TITLE}> "in tx"`]);
          expect(ours(await a.describe(existing, tx))).toEqual(
            [`<${TITLE}> "outside"`, `<${NOTE}> "tx note"`].sort(),
          );
          expect((await a.describe(workspace, tx)).children).toContain(child);
          // Others do not see them.
          const other = adapter();
          expect((await rejection(other.describe(child))).message).toMatch(/answered (404|410)/);
          expect(ours(await other.describe(existing))).toEqual([`<${TITLE}> "outside"`]);
          expect((await other.describe(workspace)).children).not.toContain(child);
          const refreshed = await requireFacet(a, 'transactions').refresh(tx);
          expect(refreshed.id).toBe(tx.id);
          expect(refreshed.expiresAt).toBeGreaterThanOrEqual(tx.expiresAt - 1_000);
          await requireFacet(a, 'transactions').commit(tx);
          expect(ours(await other.describe(child))).toEqual([`<${TITLE}> "in tx"`]);
          expect(ours(await other.describe(existing))).toEqual(
            [`<${TITLE}> "outside"`, `<${NOTE}> "tx note"`].sort(),
          );
          // A committed transaction cannot be used again.
          expect(await rejection(requireFacet(a, 'transactions').commit(tx))).toBeInstanceOf(
            UpstreamFailedError,
          );
        });

        it('rolls back: nothing done in the transaction remains', async () => {
          const a = adapter();
          const existing = await a.createChild(workspace, [{ predicate: TITLE, object: literal('stays') }]);
          const tx = await requireFacet(a, 'transactions').begin();
          const child = await a.createChild(
            workspace,
            [{ predicate: TITLE, object: literal('rolled back') }],
            tx,
          );
          await a.updateTriples(
            existing,
            [quad(namedNode(existing), namedNode(TITLE), literal('stays'))],
            [],
            tx,
          );
          await a.delete(existing, tx);
          await requireFacet(a, 'transactions').rollback(tx);
          expect(await rejection(a.describe(child))).toBeInstanceOf(UpstreamFailedError);
          expect(ours(await a.describe(existing))).toEqual([`<${TITLE}> "stays"`]);
          const stale = await rejection(a.describe(existing, tx));
          expect(stale).toBeInstanceOf(UpstreamFailedError);
          expect(stale.message).toContain(existing);
        });

        it('names an unknown transaction in the error', async () => {
          const error = await rejection(
            requireFacet(adapter(), 'transactions').refresh({ id: randomUUID() }),
          );
          expect(error).toBeInstanceOf(UpstreamFailedError);
          expect(error.message).toMatch(/^POST http:\/\/\S+\/fcr:tx\/[0-9a-f-]+ answered 4\d\d /);
        });
      } else {
        it('fails cleanly: transactions are unsupported (begin, refresh, commit, rollback, and any request in one)', async () => {
          const a = adapter();
          const tx = { id: randomUUID() };
          await expectUnsupported(() => requireFacet(a, 'transactions').begin(), 'transactions', kind);
          await expectUnsupported(() => requireFacet(a, 'transactions').refresh(tx), 'transactions', kind);
          await expectUnsupported(() => requireFacet(a, 'transactions').commit(tx), 'transactions', kind);
          await expectUnsupported(() => requireFacet(a, 'transactions').rollback(tx), 'transactions', kind);
          await expectUnsupported(() => a.describe(workspace, tx), 'transactions', kind);
          await expectUnsupported(() => a.createChild(workspace, [], tx), 'transactions', kind);
          await expectUnsupported(() => a.updateTriples(workspace, [], [], tx), 'transactions', kind);
          await expectUnsupported(() => a.delete(workspace, tx), 'transactions', kind);
          expect(a.client.requestCount).toBe(0);
        });
      }
    });

    describe('versions', () => {
      if (features.versioning) {
        it('creates a labelled version, lists it, restores it, deletes it', async () => {
          const a = adapter();
          const child = await a.createChild(workspace, [
            { predicate: TITLE, object: literal('first') },
            { predicate: NOTE, object: literal('original note') },
          ]);
          const version = await requireFacet(a, 'versions').create(child, 'v1');
          expect(version.name).toBe('v1');
          expect(version.uri.startsWith(`${child}/fcr:versions/`)).toBe(true);
          expect(Number.isNaN(Date.parse(version.time))).toBe(false);
          const subject = namedNode(child);
          await a.updateTriples(
            child,
            [quad(subject, namedNode(TITLE), literal('first'))],
            [
              quad(subject, namedNode(TITLE), literal('second')),
              quad(subject, namedNode(RELATED), namedNode(`${EX}x`)),
            ],
          );
          const listed = await requireFacet(a, 'versions').list(child);
          expect(listed).toContainEqual({ name: 'v1', time: version.time, uri: version.uri });
          expect(await requireFacet(a, 'versions').restore(version.uri)).toBe(child);
          const restored = await a.describe(child);
          expect(ours(restored)).toEqual([`<${TITLE}> "first"`, `<${NOTE}> "original note"`].sort());
          expect(restored.parent).toBe(workspace);
          await requireFacet(a, 'versions').delete(version.uri);
          expect((await requireFacet(a, 'versions').list(child)).map((v) => v.uri)).not.toContain(
            version.uri,
          );
        });

        it('keeps a non-ASCII version name', async () => {
          const a = adapter();
          const child = await a.createChild(workspace, [{ predicate: TITLE, object: literal('named') }]);
          const version = await requireFacet(a, 'versions').create(child, 'révisé 100%');
          expect(version.name).toBe('révisé 100%');
          expect((await requireFacet(a, 'versions').list(child)).map((v) => v.name)).toContain('révisé 100%');
        });

        it('restores a container that gained children without touching them', async () => {
          const a = adapter();
          const parent = await a.createChild(workspace, [{ predicate: TITLE, object: literal('parent v1') }]);
          const version = await requireFacet(a, 'versions').create(parent, '');
          expect(version.name).toBe(version.uri.split('/').at(-1));
          const child = await a.createChild(parent, []);
          await a.updateTriples(
            parent,
            [quad(namedNode(parent), namedNode(TITLE), literal('parent v1'))],
            [],
          );
          await requireFacet(a, 'versions').restore(version.uri);
          const restored = await a.describe(parent);
          expect(ours(restored)).toEqual([`<${TITLE}> "parent v1"`]);
          expect(restored.children).toContain(child);
        });

        it('restores a binary from its version, bytes streamed back', async () => {
          const a = adapter();
          const content = randomBytes(200_000);
          const uri = await a.uploadBinary(workspace, {
            content: Readable.from([content]),
            filename: 'versioned.bin',
            contentType: 'application/octet-stream',
          });
          const version = await requireFacet(a, 'versions').create(uri, 'binary v1');
          expect((await requireFacet(a, 'versions').list(uri)).map((v) => v.name)).toContain('binary v1');
          expect(await requireFacet(a, 'versions').restore(version.uri)).toBe(uri);
          const download = await a.downloadBinary(uri);
          expect(download.filename).toBe('versioned.bin');
          expect(download.contentType).toMatch(/^application\/octet-stream/);
          expect(sha('sha256', await readAll(download.content))).toBe(sha('sha256', content));
        });

        it('names the refusal of a version that does not exist', async () => {
          const child = await adapter().createChild(workspace, []);
          const error = await rejection(
            requireFacet(adapter(), 'versions').restore(`${child}/fcr:versions/20000101000000`),
          );
          expect(error).toBeInstanceOf(UpstreamFailedError);
          expect(error.message).toContain('answered 404 Not Found');
          expect(await rejection(requireFacet(adapter(), 'versions').restore(child))).toBeInstanceOf(
            BadRequestError,
          );
        });
      } else {
        it('fails cleanly: versions are unsupported (list, create, restore, delete)', async () => {
          const a = adapter();
          await expectUnsupported(() => requireFacet(a, 'versions').list(workspace), 'versions', kind);
          await expectUnsupported(
            () => requireFacet(a, 'versions').create(workspace, 'v1'),
            'versions',
            kind,
          );
          await expectUnsupported(
            () => requireFacet(a, 'versions').restore(`${workspace}fcr:versions/20200101000000`),
            'versions',
            kind,
          );
          await expectUnsupported(
            () => requireFacet(a, 'versions').delete(`${workspace}fcr:versions/20200101000000`),
            'versions',
            kind,
          );
          expect(a.client.requestCount).toBe(0);
        });
      }
    });

    describe('verification', () => {
      it('ping, auth and content succeed against the repository', async () => {
        const a = adapter();
        expect(await a.ping()).toEqual({ ok: true });
        expect(await a.checkAuth()).toEqual({ ok: true });
        expect(await a.checkContent()).toEqual({ ok: true });
      });

      it('ping names an unreachable host; auth and content fail too', async () => {
        const a = adapterFor({ ...target.view, rootUri: stubs.unreachableRoot });
        const ping = await a.ping();
        expect(ping.ok).toBe(false);
        expect(ping.message).toContain('Ping failed: GET http://127.0.0.1:');
        expect(ping.message).toContain('ECONNREFUSED');
        expect((await a.checkAuth()).ok).toBe(false);
        expect((await a.checkContent()).ok).toBe(false);
      });

      it('ping names a timeout', async () => {
        const a = adapterFor({ ...target.view, rootUri: stubs.slowRoot }, { responseTimeoutMs: 300 });
        const ping = await a.ping();
        expect(ping).toEqual({
          ok: false,
          message: `Ping failed: GET ${stubs.slowRoot} timed out after 0.3 s`,
        });
      });

      it('auth fails with credentials the server refuses: "Authentication failed. Status 401"', async () => {
        const view = target.wrongCredentials ?? {
          rootUri: stubs.lockedRoot,
          username: 'someone',
          password: 'wrong-password',
        };
        const a = adapterFor(view);
        expect(await a.ping()).toEqual({ ok: true });
        expect(await a.checkAuth()).toEqual({ ok: false, message: 'Authentication failed. Status 401' });
        const content = await a.checkContent();
        expect(content.ok).toBe(false);
        expect(content.message).toContain('answered 401 Unauthorized');
        expect(content.message).not.toContain(view.password ?? '\u0000');
      });

      it('content fails for a web server that is not a repository', async () => {
        const a = adapterFor({ ...target.view, rootUri: stubs.plainRoot });
        expect(await a.ping()).toEqual({ ok: true });
        expect(await a.checkAuth()).toEqual({ ok: true });
        const content = await a.checkContent();
        expect(content.ok).toBe(false);
        expect(content.message).toBe(
          kind === 'FEDORA'
            ? `${stubs.plainRoot} is not a Fedora repository root: it does not answer RDF`
            : `${stubs.plainRoot} is not a Linked Data Platform container: it is not typed ldp:Container`,
        );
      });
    });

    describe('confinement and errors', () => {
      it('refuses URIs outside the root before sending anything', async () => {
        const a = adapter();
        const root = a.client.rootUri;
        const outside = [
          'http://elsewhere.example/rest/x',
          `${root.replace('127.0.0.1', 'localhost')}x`,
          // Dot segments can only climb out of a root below the origin's "/".
          ...(new URL(root).pathname === '/' ? [] : [`${root}../escape`, `${root}a/../../escape`]),
          `${root}%2e%2e/escape`,
          `${root}a%2Fb`,
          `${root.replace('http://', 'http://user:pass@')}x`,
          'relative/path',
        ];
        for (const uri of outside) {
          expect(await rejection(a.describe(uri)), uri).toBeInstanceOf(BadRequestError);
          expect(await rejection(a.createChild(uri, [])), uri).toBeInstanceOf(BadRequestError);
        }
        expect(a.client.requestCount).toBe(0);
      });

      it('names the upstream status and URL of a failure, never the credentials', async () => {
        const missing = `${workspace.replace(/\/$/, '')}/missing-${randomUUID()}`;
        const error = await rejection(adapter().describe(missing));
        expect(error).toBeInstanceOf(UpstreamFailedError);
        expect(error.message).toMatch(
          new RegExp(`^GET ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} answered 404 Not Found`),
        );
        const password = secret();
        if (password !== null && password !== '') expect(error.message).not.toContain(password);
      });

      it('refuses RDF larger than the response limit', async () => {
        const error = await rejection(adapter({ maxRdfBytes: 64 }).describe(workspace));
        expect(error).toBeInstanceOf(UpstreamFailedError);
        expect(error.message).toContain('larger than the limit of 64 bytes');
      });
    });
  });
}
