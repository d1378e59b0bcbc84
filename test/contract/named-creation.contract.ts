import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { literal, namedNode } from '../../src/linked-data/rdf/terms.js';
import { TargetExistsError } from '../../src/repository-adapters/named-children.js';
import { BadRequestError, UpstreamFailedError } from '../../src/shared/errors.js';
import { RELATED, TITLE, ours, readAll, rejection, sha, type ContractRun } from './contract.support.js';

/**
 * The adapter contract, part: named creation (`createChild`/`uploadBinary` with `options.name`: a PUT
 * of exactly `<parent>/<name>` with `If-None-Match: *`), which COPY jobs rely on for deterministic
 * targets, and `exists`.
 */
export function describeNamedCreationContract(run: ContractRun): void {
  const { kind, adapter } = run;
  const ldp = kind === 'LDP';
  const childOf = (parent: string, encoded: string, container: boolean): string =>
    `${parent.endsWith('/') ? parent : `${parent}/`}${encoded}${ldp && container ? '/' : ''}`;
  const bytes = (text: string | Buffer) =>
    Readable.from([typeof text === 'string' ? Buffer.from(text) : text]);

  describe('named creation', () => {
    it('creates a container at exactly <parent>/<name> with its statements', async () => {
      const a = adapter();
      const name = `Été (1) ${randomUUID().slice(0, 8)}`;
      const uri = await a.createChild(
        run.workspace,
        [
          { predicate: TITLE, object: literal('Named') },
          { predicate: RELATED, object: namedNode('http://example.org/elsewhere') },
        ],
        undefined,
        { name },
      );
      expect(uri).toBe(childOf(run.workspace, encodeURIComponent(name), true));
      const described = await adapter().describe(uri);
      expect(described.isBinary).toBe(false);
      expect(ours(described)).toEqual([`<${RELATED}> <http://example.org/elsewhere>`, `<${TITLE}> "Named"`]);
      expect((await adapter().describe(run.workspace)).children).toContain(uri);
      // A named container holds children like any other, named or not.
      const inner = await adapter().createChild(uri, [], undefined, { name: 'inner' });
      expect(inner).toBe(childOf(uri, 'inner', true));
      expect((await adapter().describe(uri)).children).toEqual([inner]);
    });

    it('uploads a binary at exactly <parent>/<name>, streamed, with filename and type', async () => {
      const a = adapter();
      const name = `scan ${randomUUID().slice(0, 8)}.tif`;
      const content = randomBytes(1024 * 1024 + 3);
      const uri = await a.uploadBinary(
        run.workspace,
        {
          content: Readable.from([content.subarray(0, 500_000), content.subarray(500_000)]),
          filename: 'Ürkunde.tif',
          contentType: 'image/tiff',
        },
        undefined,
        { name },
      );
      expect(uri).toBe(childOf(run.workspace, encodeURIComponent(name), false));
      expect((await adapter().describe(uri)).isBinary).toBe(true);
      expect((await adapter().describe(run.workspace)).children).toContain(uri);
      const download = await adapter().downloadBinary(uri);
      expect(download.contentType).toMatch(/^image\/tiff/);
      expect(download.filename).toBe('Ürkunde.tif');
      expect(sha('sha256', await readAll(download.content))).toBe(sha('sha256', content));
    });

    it('refuses an existing target with TargetExistsError and changes nothing', async () => {
      const parent = await adapter().createChild(run.workspace, [], undefined, {
        name: `clash-${randomUUID()}`,
      });
      const container = await adapter().createChild(
        parent,
        [{ predicate: TITLE, object: literal('First') }],
        undefined,
        { name: 'taken' },
      );
      const binary = await adapter().uploadBinary(
        parent,
        { content: bytes('first bytes'), filename: 'first.txt', contentType: 'text/plain' },
        undefined,
        { name: 'taken.txt' },
      );
      const before = await adapter().describe(container);

      const again = await rejection(
        adapter().createChild(parent, [{ predicate: TITLE, object: literal('Second') }], undefined, {
          name: 'taken',
        }),
      );
      expect(again).toBeInstanceOf(TargetExistsError);
      expect(again).toBeInstanceOf(UpstreamFailedError);
      expect(again.message).toBe(`${container} already exists`);
      expect(again).toMatchObject({ uri: container });

      const second = randomBytes(256 * 1024);
      const upload = await rejection(
        adapter().uploadBinary(
          parent,
          { content: Readable.from([second]), filename: 'second.txt', contentType: 'text/plain' },
          undefined,
          { name: 'taken.txt' },
        ),
      );
      expect(upload).toBeInstanceOf(TargetExistsError);
      expect(upload.message).toBe(`${binary} already exists`);

      const after = await adapter().describe(container);
      expect(ours(after)).toEqual(ours(before));
      expect(ours(after)).toEqual([`<${TITLE}> "First"`]);
      const download = await adapter().downloadBinary(binary);
      expect((await readAll(download.content)).toString()).toBe('first bytes');
      expect(download.filename).toBe('first.txt');
      expect([...(await adapter().describe(parent)).children].sort()).toEqual([binary, container].sort());
    });

    it('refuses names that are not one plain segment before any request', async () => {
      const bad = ['', '.', '..', 'a/b', '../escape', 'a%2Fb', 'a%2fb', 'a\\b', 'line\nbreak'];
      bad.push(ldp ? 'x.acl' : 'fcr:metadata', ldp ? 'y.meta' : 'tx:1234');
      for (const name of bad) {
        const a = adapter();
        const created = await rejection(a.createChild(run.workspace, [], undefined, { name }));
        expect(created, JSON.stringify(name)).toBeInstanceOf(BadRequestError);
        const content = bytes('never sent');
        const uploaded = await rejection(
          a.uploadBinary(run.workspace, { content, filename: 'x', contentType: 'text/plain' }, undefined, {
            name,
          }),
        );
        expect(uploaded, JSON.stringify(name)).toBeInstanceOf(BadRequestError);
        expect(a.client.requestCount, JSON.stringify(name)).toBe(0);
        // The caller's stream is drained, not left hanging (a timeout here is a failure).
        if (!content.readableEnded) await once(content, 'end');
      }
    });

    it('exists: true for containers and binaries, false for missing and deleted ones', async () => {
      const a = adapter();
      const container = await a.createChild(run.workspace, [], undefined, { name: `e-${randomUUID()}` });
      const binary = await a.uploadBinary(
        container,
        { content: bytes('x'), filename: 'x.txt', contentType: 'text/plain' },
        undefined,
        { name: 'x.txt' },
      );
      expect(await adapter().exists(container)).toBe(true);
      expect(await adapter().exists(binary)).toBe(true);
      expect(await adapter().exists(run.workspace)).toBe(true);
      expect(await adapter().exists(childOf(container, 'missing', false))).toBe(false);
      await adapter().delete(binary);
      // Fedora keeps a tombstone (410), CSS forgets it (404): both are "not there".
      expect(await adapter().exists(binary)).toBe(false);
      const counted = adapter();
      expect(await counted.exists(container)).toBe(true);
      expect(counted.client.requestCount).toBe(1);
      await expect(adapter().exists('http://elsewhere.example/x')).rejects.toBeInstanceOf(BadRequestError);
    });
  });

  if (kind === 'FEDORA') {
    describe('named upload with a digest (Fedora verifies it on arrival)', () => {
      const content = Buffer.from('verified on arrival\n');
      const hex = (algorithm: string) => createHash(algorithm).update(content).digest('hex');
      // Fedora 4.x verifies SHA-1 only; the other algorithms are not sent there.
      const algorithms =
        run.dialect === 'FEDORA_4' ? (['sha1'] as const) : (['sha1', 'sha-256', 'sha-512'] as const);

      for (const algorithm of algorithms) {
        it(`${algorithm}: the right digest is accepted, a wrong one refused and nothing kept`, async () => {
          const node = algorithm === 'sha1' ? 'sha1' : algorithm.replace('-', '');
          const good = await adapter().uploadBinary(
            run.workspace,
            { content: bytes(content), filename: 'v.txt', contentType: 'text/plain' },
            undefined,
            {
              name: `good-${algorithm}-${randomUUID()}`,
              digest: { algorithm, hex: hex(node).toUpperCase() },
            },
          );
          expect((await readAll((await adapter().downloadBinary(good)).content)).equals(content)).toBe(true);

          const name = `bad-${algorithm}-${randomUUID()}`;
          const wrong = hex(node).replace(/^./, (c) => (c === '0' ? '1' : '0'));
          const error = await rejection(
            adapter().uploadBinary(
              run.workspace,
              { content: bytes(content), filename: 'v.txt', contentType: 'text/plain' },
              undefined,
              { name, digest: { algorithm, hex: wrong } },
            ),
          );
          expect(error).toBeInstanceOf(UpstreamFailedError);
          expect(error).not.toBeInstanceOf(TargetExistsError);
          expect(error).toMatchObject({ status: 409 });
          expect(await adapter().exists(childOf(run.workspace, name, false))).toBe(false);
        });
      }

      it('a malformed digest is a BadRequestError before any request', async () => {
        const a = adapter();
        const error = await rejection(
          a.uploadBinary(
            run.workspace,
            { content: bytes(content), filename: 'v.txt', contentType: 'text/plain' },
            undefined,
            {
              name: `m-${randomUUID()}`,
              digest: { algorithm: 'sha-256', hex: `${hex('sha256').slice(1)}\r\nx: y` },
            },
          ),
        );
        expect(error).toBeInstanceOf(BadRequestError);
        expect(a.client.requestCount).toBe(0);
      });
    });
  }
}
