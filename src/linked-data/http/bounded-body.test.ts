import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError, readBounded } from './bounded-body.js';

describe('readBounded', () => {
  it('reads Buffers, strings and byte arrays up to the limit', async () => {
    const body = await readBounded(Readable.from([Buffer.from('ab'), 'cd', new Uint8Array([101])]), 5);
    expect(body.toString('utf8')).toBe('abcde');
    expect((await readBounded(Readable.from([]), 0)).length).toBe(0);
  });

  it('refuses a body past the limit, and stops reading it', async () => {
    const stream = Readable.from(['abc', 'def', 'ghi']);
    await expect(readBounded(stream, 4)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(stream.destroyed).toBe(true);
  });

  it('refuses a declared length past the limit before reading', async () => {
    const stream = Readable.from(['x']);
    const error = new Error('too big');
    await expect(readBounded(stream, 4, { declaredLength: '5', tooLarge: () => error })).rejects.toBe(error);
    expect(stream.readableEnded).toBe(false);
  });

  it('ignores a malformed declared length (the bytes decide)', async () => {
    const body = await readBounded(Readable.from(['abc']), 4, { declaredLength: 'lots' });
    expect(body.toString()).toBe('abc');
    await expect(readBounded(Readable.from(['abcde']), 4, { declaredLength: 'x' })).rejects.toThrow(
      'larger than the limit of 4 bytes',
    );
  });

  it('passes errors of the source through', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('reset'));
      },
    });
    await expect(readBounded(failing, 10)).rejects.toThrow('reset');
  });
});
