import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { digesting, digestOf } from './stream-digests.js';

/** A source that never ends by itself: only a destroy stops it. */
function endless(): Readable {
  return new Readable({
    read() {
      this.push(Buffer.alloc(1024, 7));
    },
  });
}

describe('digesting', () => {
  it('passes the bytes through unchanged and hashes them in every algorithm in the one pass', async () => {
    const parts = [Buffer.from('first part, '), Buffer.from('second part')];
    const { stream, digests } = digesting(Readable.from(parts));
    const through: Buffer[] = [];
    for await (const chunk of stream) through.push(chunk as Buffer);
    const whole = Buffer.concat(parts);
    expect(Buffer.concat(through)).toEqual(whole);
    const result = digests();
    expect(result.size).toBe(whole.length);
    for (const algorithm of ['sha512', 'sha256', 'sha1', 'md5'] as const)
      expect(result.hex[algorithm]).toBe(createHash(algorithm).update(whole).digest('hex'));
    expect(await digestOf(Readable.from(parts))).toEqual(result);
  });

  it('releases the source when the reader stops reading (an upload refused part way)', async () => {
    const source = endless();
    const { stream, digests } = digesting(source);
    await once(stream, 'readable');
    // (The upload that destroyed it has the error already.)
    const told = once(stream, 'error');
    stream.destroy(new Error('the target refused the upload'));
    await told;
    await expect.poll(() => source.destroyed, { timeout: 2000 }).toBe(true);
    expect(() => digests()).toThrow('The binary was not read to its end');
  });

  it('fails the reader when the source fails', async () => {
    const source = endless();
    const { stream } = digesting(source);
    const failed = once(stream, 'error');
    source.destroy(new Error('the source connection reset'));
    const [error] = (await failed) as [Error];
    expect(error.message).toBe('the source connection reset');
  });
});
