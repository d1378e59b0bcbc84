import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../src/linked-data/rdf/terms.js';
import { requireFacet } from '../../src/repository-adapters/repository-kinds.js';
import { BadRequestError, UpstreamFailedError } from '../../src/shared/errors.js';
import {
  EX,
  NOTE,
  RELATED,
  TITLE,
  expectUnsupported,
  ours,
  readAll,
  rejection,
  sha,
  type ContractRun,
} from './contract.support.js';

/** The adapter contract, part: The versions facet: present, versions are created, listed, restored and deleted; absent, every use fails cleanly. */
export function describeVersionContract(run: ContractRun): void {
  const { kind, features, adapter } = run;
  // Fedora 5.x keeps no labels (it refuses Slug): a version is named by its memento. Every other line
  // keeps the name given.
  const keepsLabels = run.dialect !== 'FEDORA_5';
  const nameOf = (label: string, uri: string) => (keepsLabels ? label : uri.split('/').at(-1));

  describe('versions', () => {
    if (features.versioning) {
      it('creates a labelled version, lists it, restores it, deletes it', async () => {
        const a = adapter();
        const child = await a.createChild(run.workspace, [
          { predicate: TITLE, object: literal('first') },
          { predicate: NOTE, object: literal('original note') },
        ]);
        const version = await requireFacet(a, 'versions').create(child, 'v1');
        expect(version.name).toBe(nameOf('v1', version.uri));
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
        expect(listed).toContainEqual({ name: version.name, time: version.time, uri: version.uri });
        expect(await requireFacet(a, 'versions').restore(version.uri)).toBe(child);
        const restored = await a.describe(child);
        expect(ours(restored)).toEqual([`<${TITLE}> "first"`, `<${NOTE}> "original note"`].sort());
        expect(restored.parent).toBe(run.workspace);
        await requireFacet(a, 'versions').delete(version.uri);
        expect((await requireFacet(a, 'versions').list(child)).map((v) => v.uri)).not.toContain(version.uri);
      });

      if (run.dialect === 'FEDORA_4') {
        it('refuses a version name Fedora 4 cannot keep, clearly and before sending', async () => {
          const a = adapter();
          const child = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('named') }]);
          const error = await rejection(requireFacet(a, 'versions').create(child, 'révisé 100%'));
          expect(error).toBeInstanceOf(BadRequestError);
          expect(error.message).toBe(
            'Fedora 4 refuses this version name: it may not contain any of ~ # @ * + % { } < > [ ] | " ^',
          );
          expect(a.client.requestCount).toBe(1);
          expect(await requireFacet(a, 'versions').list(child)).toEqual([]);
        });
      } else {
        it(
          keepsLabels
            ? 'keeps a non-ASCII version name'
            : 'names a version by its memento (5.x keeps no label)',
          async () => {
            const a = adapter();
            const child = await a.createChild(run.workspace, [
              { predicate: TITLE, object: literal('named') },
            ]);
            const version = await requireFacet(a, 'versions').create(child, 'révisé 100%');
            expect(version.name).toBe(nameOf('révisé 100%', version.uri));
            expect((await requireFacet(a, 'versions').list(child)).map((v) => v.name)).toContain(
              version.name,
            );
          },
        );
      }

      it('restores a container that gained children without touching them', async () => {
        const a = adapter();
        const parent = await a.createChild(run.workspace, [
          { predicate: TITLE, object: literal('parent v1') },
        ]);
        const version = await requireFacet(a, 'versions').create(parent, '');
        expect(version.name).toBe(version.uri.split('/').at(-1));
        const child = await a.createChild(parent, []);
        await a.updateTriples(parent, [quad(namedNode(parent), namedNode(TITLE), literal('parent v1'))], []);
        await requireFacet(a, 'versions').restore(version.uri);
        const restored = await a.describe(parent);
        expect(ours(restored)).toEqual([`<${TITLE}> "parent v1"`]);
        expect(restored.children).toContain(child);
      });

      it('restores a binary from its version, bytes streamed back', async () => {
        const a = adapter();
        const content = randomBytes(200_000);
        const uri = await a.uploadBinary(run.workspace, {
          content: Readable.from([content]),
          filename: 'versioned.bin',
          contentType: 'application/octet-stream',
        });
        const version = await requireFacet(a, 'versions').create(uri, 'binary v1');
        expect(version.name).toBe(nameOf('binary v1', version.uri));
        expect((await requireFacet(a, 'versions').list(uri)).map((v) => v.name)).toContain(version.name);
        expect(await requireFacet(a, 'versions').restore(version.uri)).toBe(uri);
        const download = await a.downloadBinary(uri);
        expect(download.filename).toBe('versioned.bin');
        expect(download.contentType).toMatch(/^application\/octet-stream/);
        expect(sha('sha256', await readAll(download.content))).toBe(sha('sha256', content));
      });

      it('names the refusal of a version that does not exist', async () => {
        const child = await adapter().createChild(run.workspace, []);
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
        await expectUnsupported(() => requireFacet(a, 'versions').list(run.workspace), 'versions', kind);
        await expectUnsupported(
          () => requireFacet(a, 'versions').create(run.workspace, 'v1'),
          'versions',
          kind,
        );
        await expectUnsupported(
          () => requireFacet(a, 'versions').restore(`${run.workspace}fcr:versions/20200101000000`),
          'versions',
          kind,
        );
        await expectUnsupported(
          () => requireFacet(a, 'versions').delete(`${run.workspace}fcr:versions/20200101000000`),
          'versions',
          kind,
        );
        expect(a.client.requestCount).toBe(0);
      });
    }
  });
}
