import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../src/linked-data/rdf/terms.js';
import { requireFacet } from '../../src/repository-adapters/repository-kinds.js';
import { PreconditionFailedError } from '../../src/shared/errors.js';
import { NOTE, TITLE, ours, rejection, type Adapter, type ContractRun } from './contract.support.js';

const note = (uri: string, text: string) => quad(namedNode(uri), namedNode(NOTE), literal(text));

/** What a stale `ifMatch` must give: a PreconditionFailedError naming the resource, nothing written. */
async function expectRefused(write: Promise<void>, uri: string): Promise<void> {
  const error = await rejection(write);
  expect(error).toBeInstanceOf(PreconditionFailedError);
  expect(error.message).toBe(`${uri} changed since it was read (412 Precondition Failed)`);
}

/**
 * The adapter contract, part: conditional writes (curation jobs, DECISIONS.md §9). `describe` reports
 * an ETag; `updateTriples` with it as `ifMatch` writes while the resource is unchanged and, once another
 * write changed it, refuses with a PreconditionFailedError and writes nothing — read back to prove it.
 */
export function describeConditionalWriteContract(run: ContractRun): void {
  const { features, adapter } = run;

  /** A binary below the workspace, with a title in its description. */
  async function uploadedBinary(a: Adapter): Promise<string> {
    const uri = await a.uploadBinary(run.workspace, {
      content: Readable.from([Buffer.from('etag test')]),
      filename: 'etag.txt',
      contentType: 'text/plain',
    });
    await a.updateTriples(uri, [], [quad(namedNode(uri), namedNode(TITLE), literal('binary'))]);
    return uri;
  }

  describe('conditional writes (ETag and If-Match)', () => {
    for (const shape of ['container', 'binary'] as const) {
      it(`a ${shape}: describe gives an ETag, a write with it succeeds and changes it, a stale one is refused`, async () => {
        const a = adapter();
        const uri =
          shape === 'container'
            ? await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('etag') }])
            : await uploadedBinary(a);
        const before = await a.describe(uri);
        expect(before.etag).toEqual(expect.any(String));
        expect(before.etag).not.toBe('');

        await a.updateTriples(uri, [], [note(uri, 'first')], undefined, { ifMatch: before.etag });
        const after = await a.describe(uri);
        expect(ours(after)).toContain(`<${NOTE}> "first"`);
        expect(after.etag).toEqual(expect.any(String));
        expect(after.etag).not.toBe(before.etag);

        // The ETag read before the first write is stale now: refused, nothing written.
        await expectRefused(
          a.updateTriples(uri, [], [note(uri, 'stale')], undefined, { ifMatch: before.etag }),
          uri,
        );
        // Also by an adapter that never read it (it must find where to write first).
        await expectRefused(
          adapter().updateTriples(uri, [note(uri, 'first')], [], undefined, { ifMatch: before.etag }),
          uri,
        );
        const readBack = await adapter().describe(uri);
        expect(ours(readBack).filter((k) => k.startsWith(`<${NOTE}>`))).toEqual([`<${NOTE}> "first"`]);
        expect(readBack.etag).toBe(after.etag);
      });
    }

    it('refuses a write when another client changed the resource after it was read', async () => {
      const reader = adapter();
      const uri = await reader.createChild(run.workspace, [{ predicate: TITLE, object: literal('shared') }]);
      const read = await reader.describe(uri);
      await adapter().updateTriples(uri, [], [note(uri, 'by someone else')]);
      await expectRefused(
        reader.updateTriples(uri, [], [note(uri, 'lost update')], undefined, { ifMatch: read.etag }),
        uri,
      );
      expect(ours(await reader.describe(uri))).toEqual(
        [`<${TITLE}> "shared"`, `<${NOTE}> "by someone else"`].sort(),
      );
    });

    if (features.transacting) {
      it('inside a transaction: the ETag read in it guards writes in it', async () => {
        const a = adapter();
        const uri = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('in tx') }]);
        const transactions = requireFacet(a, 'transactions');
        const tx = await transactions.begin();
        try {
          const before = await a.describe(uri, tx);
          expect(before.etag).toEqual(expect.any(String));
          await a.updateTriples(uri, [], [note(uri, 'tx write')], tx, { ifMatch: before.etag });
          const after = await a.describe(uri, tx);
          expect(after.etag).not.toBe(before.etag);
          await expectRefused(
            a.updateTriples(uri, [], [note(uri, 'stale')], tx, { ifMatch: before.etag }),
            uri,
          );
          expect(ours(await a.describe(uri, tx))).toEqual(
            [`<${TITLE}> "in tx"`, `<${NOTE}> "tx write"`].sort(),
          );
          await transactions.commit(tx);
        } catch (error) {
          await transactions.rollback(tx).catch(() => undefined);
          throw error;
        }
        expect(ours(await adapter().describe(uri))).toEqual(
          [`<${TITLE}> "in tx"`, `<${NOTE}> "tx write"`].sort(),
        );
      });
    }
  });
}
