/** A progress line every `every` items and at the end: "binaries copied 300/1200, 1.2 GiB". */
export class ProgressLine {
  private done = 0;
  private bytes = 0;

  constructor(
    private readonly report: (line: string) => void,
    private readonly what: string,
    private readonly total: number,
    private readonly every = 100,
  ) {}

  advance(bytes: number): void {
    this.done++;
    this.bytes += bytes;
    if (this.done % this.every === 0 && this.done < this.total) this.print();
  }

  finish(): void {
    this.print();
  }

  private print(): void {
    this.report(`${this.what} ${this.done}/${this.total}, ${formatBytes(this.bytes)}`);
  }
}

/** Runs `work` on every item, at most `limit` at once. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) await work(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
