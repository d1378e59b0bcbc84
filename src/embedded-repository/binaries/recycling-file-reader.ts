import fs from 'node:fs';
import { Readable } from 'node:stream';

/** What the reader needs to know of where its chunks go: how many bytes it still holds unwritten. */
export interface ChunkSink {
  readonly writableLength: number;
}

/**
 * A file's bytes (or an inclusive range of them) read into one buffer that is used again for the next
 * read whenever every chunk given out before has left the process: nothing is waiting in this stream
 * (`readableLength`) and nothing in the sink it is piped to (`writableLength`: a socket counts a write
 * until the kernel has taken all of it). Otherwise the read gets a fresh buffer, as `fs.createReadStream`
 * gives every read.
 *
 * Why: each fresh buffer is memory outside V8's heap, and once about 64 MiB of it has been allocated
 * since the last full collection V8 marks the whole heap again. A 100 MiB download read in fresh buffers
 * cost the service one or two full collections, three to four times the CPU of the download itself once
 * the service had been idle (bench/PROFILE.md, eighth pass).
 *
 * Only for a sink that copies or writes out what it is given (a socket, light-my-request's response); a
 * consumer that keeps chunks (collecting them in a list) must use a plain read stream.
 */
export class RecyclingFileReader extends Readable {
  /** Reads done, and how many of them had to take a fresh buffer (tests count them). */
  readonly reads = { total: 0, fresh: 0 };
  private fd: number | undefined;
  private position: number;
  private readonly end: number;
  private spare: Buffer | undefined;
  private reading = false;
  /** Set when the stream was destroyed during a read: what to do once the read is done. */
  private afterRead: (() => void) | undefined;

  constructor(
    private readonly file: string,
    private readonly chunkBytes: number,
    private readonly sink: ChunkSink,
    range?: { start: number; end: number },
  ) {
    // No read ahead: while the sink is still writing a chunk the buffer is not free, so a read then
    // would need a fresh one. The next read starts when the sink asks for more.
    super({ highWaterMark: 0 });
    this.position = range?.start ?? 0;
    this.end = range?.end ?? Number.POSITIVE_INFINITY;
  }

  override _read(): void {
    // Opened at the first read rather than in `_construct`: with no read ahead, a read asked for while
    // the stream was being constructed would not be asked for again.
    if (this.fd === undefined) {
      fs.open(this.file, 'r', (error, fd) => {
        if (error !== null) {
          this.destroy(error);
          return;
        }
        if (this.destroyed) {
          fs.close(fd, () => undefined); // the client left while the file was being opened
          return;
        }
        this.fd = fd;
        this.readFrom(fd);
      });
      return;
    }
    this.readFrom(this.fd);
  }

  private readFrom(fd: number): void {
    const length = Math.min(this.chunkBytes, this.end - this.position + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = this.bufferFor(length);
    this.reading = true;
    fs.read(fd, buffer, 0, length, this.position, (error, bytesRead) => {
      this.reading = false;
      if (this.afterRead !== undefined) {
        this.afterRead();
        return;
      }
      if (error !== null) {
        this.destroy(error);
        return;
      }
      if (bytesRead === 0) {
        this.push(null);
        return;
      }
      this.position += bytesRead;
      this.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const fd = this.fd;
    this.fd = undefined;
    this.spare = undefined;
    if (fd === undefined) {
      callback(error);
      return;
    }
    const close = () => {
      fs.close(fd, (closeError) => {
        callback(error ?? closeError);
      });
    };
    // A read in flight still uses the descriptor: closed after it, so that its number is not reused
    // under it (as fs.ReadStream does).
    if (this.reading) this.afterRead = close;
    else close();
  }

  /** The kept buffer when nothing holds it any longer, else a fresh one (then kept for next time). */
  private bufferFor(length: number): Buffer {
    this.reads.total++;
    const free = this.readableLength === 0 && this.sink.writableLength === 0;
    if (free && this.spare !== undefined && this.spare.length >= length)
      return this.spare.subarray(0, length);
    this.reads.fresh++;
    const buffer = Buffer.allocUnsafeSlow(length);
    this.spare = buffer;
    return buffer;
  }
}
