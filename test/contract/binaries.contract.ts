import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { literal, namedNode, quad } from '../../src/linked-data/rdf/terms.js';
import { requireFacet } from '../../src/repository-adapters/repository-kinds.js';
import { BadRequestError, UpstreamFailedError } from '../../src/shared/errors.js';
import {
  TITLE,
  expectUnsupported,
  ours,
  readAll,
  rejection,
  sha,
  type ContractRun,
} from './contract.support.js';

/** The adapter contract, part: Binaries (upload, download, their descriptions) and the fixity facet. */
export function describeBinaryContract(run: ContractRun): void {
  const { kind, features, adapter } = run;
  // Fedora 4.x and 5.x digest binaries with SHA-1 (`urn:sha1:`); 6.x/7.x with SHA-512.
  const sha1Lines = run.dialect === 'FEDORA_4' || run.dialect === 'FEDORA_5';

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
      const uri = await a.uploadBinary(run.workspace, {
        content: Readable.from(chunks),
        filename,
        contentType: 'text/plain',
      });
      expect(uri.startsWith(a.client.rootUri)).toBe(true);
      const described = await a.describe(uri);
      expect(described.isBinary).toBe(true);
      expect(described.children).toEqual([]);
      expect(described.parent).toBe(run.workspace);
      expect((await a.describe(run.workspace)).children).toContain(uri);
      const download = await a.downloadBinary(uri);
      expect(download.contentType).toMatch(/^text\/plain/);
      expect(download.filename).toBe(filename);
      const bytes = await readAll(download.content);
      expect(bytes.length).toBe(content.length);
      expect(sha('sha256', bytes)).toBe(sha('sha256', content));
    });

    it("writes a binary's statements to its description", async () => {
      const a = adapter();
      const uri = await a.uploadBinary(run.workspace, {
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
      const error = await rejection(adapter().downloadBinary(run.workspace));
      expect(error).toBeInstanceOf(BadRequestError);
    });
  });

  describe('fixity', () => {
    it(
      features.fixity
        ? `reports SUCCESS with the ${sha1Lines ? 'SHA-1' : 'SHA-512'} and the size`
        : 'fails cleanly: fixity is unsupported',
      async () => {
        const a = adapter();
        const content = Buffer.from('fixity check content\n');
        const uri = await a.uploadBinary(run.workspace, {
          content: Readable.from([content]),
          filename: 'f.txt',
          contentType: 'text/plain',
        });
        if (features.fixity) {
          const result = await requireFacet(a, 'fixity').check(uri);
          expect(result).toEqual({
            status: 'SUCCESS',
            messageDigest: sha1Lines
              ? `urn:sha1:${sha('sha1', content)}`
              : `urn:sha-512:${sha('sha512', content)}`,
            size: String(content.length),
          });
          expect(await rejection(requireFacet(a, 'fixity').check(run.workspace))).toBeInstanceOf(
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
}
