import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../src/linked-data/rdf/terms.js';
import { requireFacet } from '../../src/repository-adapters/repository-kinds.js';
import { UpstreamFailedError } from '../../src/shared/errors.js';
import { NOTE, TITLE, expectUnsupported, ours, rejection, type ContractRun } from './contract.support.js';

/** The adapter contract, part: The transactions facet: present, it isolates and commits or rolls back; absent, every use fails cleanly. */
export function describeTransactionContract(run: ContractRun): void {
  const { kind, features, adapter } = run;
  // Fedora 4.x/5.x keep the transaction in the path (`<root>tx:<id>/…`); 6.x/7.x at `<root>fcr:tx/<id>`.
  const inPath = run.dialect === 'FEDORA_4' || run.dialect === 'FEDORA_5';

  describe('transactions', () => {
    if (features.transacting) {
      it('begins, sees its own changes, hides them from others, commits', async () => {
        const a = adapter();
        const existing = await a.createChild(run.workspace, [
          { predicate: TITLE, object: literal('outside') },
        ]);
        const tx = await requireFacet(a, 'transactions').begin();
        expect(tx.id).toMatch(/^[A-Za-z0-9-]+$/);
        expect(tx.expiresAt).toBeGreaterThan(Date.now());
        expect(tx.expiresAt).toBeLessThan(Date.now() + 24 * 3_600_000);
        const child = await a.createChild(
          run.workspace,
          [{ predicate: TITLE, object: literal('in tx') }],
          tx,
        );
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
        expect((await a.describe(run.workspace, tx)).children).toContain(child);
        // Others do not see them.
        const other = adapter();
        expect((await rejection(other.describe(child))).message).toMatch(/answered (404|410)/);
        expect(ours(await other.describe(existing))).toEqual([`<${TITLE}> "outside"`]);
        expect((await other.describe(run.workspace)).children).not.toContain(child);
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
        const existing = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('stays') }]);
        const tx = await requireFacet(a, 'transactions').begin();
        const child = await a.createChild(
          run.workspace,
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
        const root = a.client.rootUri;
        expect(stale.message).toContain(
          inPath ? `${root}tx:${tx.id}/${existing.slice(root.length)}` : existing,
        );
      });

      it('names an unknown transaction in the error', async () => {
        const error = await rejection(requireFacet(adapter(), 'transactions').refresh({ id: randomUUID() }));
        expect(error).toBeInstanceOf(UpstreamFailedError);
        expect(error.message).toMatch(
          inPath
            ? /^POST http:\/\/\S+\/tx:[0-9a-f-]+\/fcr:tx answered 4\d\d /
            : /^POST http:\/\/\S+\/fcr:tx\/[0-9a-f-]+ answered 4\d\d /,
        );
      });
    } else {
      it('fails cleanly: transactions are unsupported (begin, refresh, commit, rollback, and any request in one)', async () => {
        const a = adapter();
        const tx = { id: randomUUID() };
        await expectUnsupported(() => requireFacet(a, 'transactions').begin(), 'transactions', kind);
        await expectUnsupported(() => requireFacet(a, 'transactions').refresh(tx), 'transactions', kind);
        await expectUnsupported(() => requireFacet(a, 'transactions').commit(tx), 'transactions', kind);
        await expectUnsupported(() => requireFacet(a, 'transactions').rollback(tx), 'transactions', kind);
        await expectUnsupported(() => a.describe(run.workspace, tx), 'transactions', kind);
        await expectUnsupported(() => a.createChild(run.workspace, [], tx), 'transactions', kind);
        await expectUnsupported(() => a.updateTriples(run.workspace, [], [], tx), 'transactions', kind);
        await expectUnsupported(() => a.delete(run.workspace, tx), 'transactions', kind);
        expect(a.client.requestCount).toBe(0);
      });
    }
  });
}
