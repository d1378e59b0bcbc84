import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** One spooled row: the resource, its ETag, and its encoded cells by column header. */
export interface SpooledRow {
  readonly contextUri: string;
  readonly etag: string | null;
  readonly cells: Readonly<Record<string, string>>;
}

/** Where spool files are made, by name, so a test (or an operator) can tell them from others. */
export const SPOOL_PREFIX = 'scriptorium-export-';

/** Bytes gathered before they are written: few writes, and a bound on what is held. */
const FLUSH_BYTES = 64 * 1024;

/**
 * A temporary file of rows, one JSON document a line (JSON escapes every line break a row could hold), so
 * an export never holds its rows in memory: written as the scope is read, read back once as the CSV is
 * written. Only its owner reads it (mode 600); `remove` deletes it, and may be called any number of times.
 */
export class RowSpool {
  private pending: string[] = [];
  private pendingBytes = 0;
  private removed = false;

  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
  ) {}

  /** A new, empty spool in `dir` (the system's temporary directory unless told). */
  static async create(dir = os.tmpdir()): Promise<RowSpool> {
    const file = path.join(dir, `${SPOOL_PREFIX}${randomUUID()}.jsonl`);
    return new RowSpool(file, await open(file, 'wx', 0o600));
  }

  async append(row: SpooledRow): Promise<void> {
    const line = `${JSON.stringify([row.contextUri, row.etag, row.cells])}\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
  }

  /** Writes what is gathered and closes the file for writing; `rows` may then read it. */
  async finish(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    await this.handle.write(text);
  }

  /** The rows in the order appended, read as the caller takes them. */
  async *rows(): AsyncGenerator<SpooledRow> {
    const input = createReadStream(this.file, { encoding: 'utf8' });
    const lines = createInterface({ input, crlfDelay: Infinity });
    try {
      for await (const line of lines) {
        if (line === '') continue;
        const [contextUri, etag, cells] = JSON.parse(line) as [string, string | null, Record<string, string>];
        yield { contextUri, etag, cells };
      }
    } finally {
      lines.close();
      input.destroy();
    }
  }

  /** Deletes the file (closing it first when still open for writing). */
  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    await this.handle.close().catch(() => undefined);
    await rm(this.file, { force: true });
  }
}
