import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../src/linked-data/rdf/terms.js';
import { BadRequestError, CapabilityUnsupportedError, UpstreamFailedError } from '../../src/shared/errors.js';
import {
  COUNT,
  DCT,
  EVIL,
  EX,
  NOTE,
  RELATED,
  TITLE,
  XSD_INTEGER,
  ours,
  rejection,
  type ContractRun,
} from './contract.support.js';

/** The adapter contract, part: Reading and writing resources: describe, createChild, updateTriples, runUpdate, delete. */
export function describeResourceContract(run: ContractRun): void {
  const { kind, features, adapter } = run;

  describe('reading and writing resources', () => {
    it('describes the root: a container listing its children, without a parent', async () => {
      const a = adapter();
      const root = await a.describe(run.target.view.rootUri);
      expect(root.uri).toBe(a.client.rootUri);
      expect(root.isBinary).toBe(false);
      expect(root.parent).toBeUndefined();
      expect(root.children).toContain(run.workspace);
      expect(a.client.requestCount).toBe(1);
    });

    it('creates one child carrying the statements and reads them back', async () => {
      const a = adapter();
      const child = await a.createChild(run.workspace, [
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
      expect(described.parent).toBe(run.workspace);
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
      expect((await a.describe(run.workspace)).children).toContain(child);
    });

    it('creates a child without statements', async () => {
      const a = adapter();
      const child = await a.createChild(run.workspace, []);
      const described = await a.describe(child);
      expect(ours(described)).toEqual([]);
      expect(described.parent).toBe(run.workspace);
    });

    it('removes and adds statements in one update, one request after a describe', async () => {
      const a = adapter();
      const child = await a.createChild(run.workspace, [
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
      const child = await adapter().createChild(run.workspace, [
        { predicate: TITLE, object: literal('one') },
      ]);
      await adapter().updateTriples(child, [], [quad(namedNode(child), namedNode(NOTE), literal('two'))]);
      expect(ours(await adapter().describe(child))).toEqual([`<${TITLE}> "one"`, `<${NOTE}> "two"`].sort());
    });

    it('adds a literal crafted to break out of the update as exactly that one literal', async () => {
      const a = adapter();
      const sibling = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('sibling') }]);
      const child = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('target') }]);
      const before = ours(await a.describe(child));
      await a.updateTriples(child, [], [quad(namedNode(child), namedNode(NOTE), literal(EVIL))]);
      const after = await a.describe(child);
      expect(ours(after)).toEqual([...before, `<${NOTE}> "${EVIL}"`].sort());
      expect(after.quads.filter((q) => q.object.value === EVIL)).toHaveLength(1);
      expect(after.quads.some((q) => q.subject.value === 'a' || q.subject.value.endsWith('/a'))).toBe(false);
      // Nothing else was deleted.
      expect(ours(await a.describe(sibling))).toEqual([`<${TITLE}> "sibling"`]);
      expect((await a.describe(run.workspace)).children).toEqual(expect.arrayContaining([sibling, child]));
    });

    it('runs a SPARQL Update where <> is the resource', async () => {
      const a = adapter();
      const child = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('before') }]);
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
        const child = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('filtered') }]);
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
        expect(await rejection(a.runUpdate(run.workspace, update))).toBeInstanceOf(BadRequestError);
      }
      expect(
        await rejection(a.runUpdate(run.workspace, 'INSERT DATA { <> <x> "unterminated }')),
      ).toBeInstanceOf(BadRequestError);
      expect(a.client.requestCount).toBe(0);
    });

    it('deletes a container with everything in it', async () => {
      const a = adapter();
      const parent = await a.createChild(run.workspace, [{ predicate: TITLE, object: literal('doomed') }]);
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
      expect((await a.describe(run.workspace)).children).not.toContain(parent);
    });
  });
}
