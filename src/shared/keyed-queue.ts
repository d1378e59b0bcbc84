/** Keys whose last finished task is remembered; beyond them, the oldest are forgotten. */
const REMEMBERED_KEYS = 10_000;

/**
 * Runs tasks one at a time per key, in the order they came; a key's queue is dropped once nothing waits
 * on it. It also remembers, for the most recent keys, when a task on each last finished, so that a
 * caller that read something before queueing learns whether a task on the same key finished since
 * (`mark`, then `run` with that mark): then what it read may be out of date.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();
  /** Tasks finished so far: the clock of `mark`. */
  private finished = 0;
  /** Key → the clock when a task on it last finished, oldest first. */
  private readonly lastFinished = new Map<string, number>();
  /** The clock of the latest finish whose key was forgotten: any mark before it counts as out of date. */
  private forgottenUpTo = 0;

  /** Keys with a task running or waiting (tests look). */
  get size(): number {
    return this.tails.size;
  }

  /** A point in time to pass to `run`. */
  mark(): number {
    return this.finished;
  }

  /**
   * Runs `task` once every earlier task on `key` is done. It is told whether a task on `key` finished
   * after `since` (always true without `since`: the caller has nothing it read before).
   */
  async run<T>(key: string, task: (changed: boolean) => Promise<T>, since?: number): Promise<T> {
    const before = this.tails.get(key);
    let done: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (done = resolve));
    // The tasks' own outcomes never reach the chain: it only ever resolves.
    const tail = before === undefined ? mine : before.then(() => mine);
    this.tails.set(key, tail);
    try {
      if (before !== undefined) await before;
      return await task(since === undefined || this.finishedSince(key, since));
    } finally {
      this.remember(key);
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  private finishedSince(key: string, since: number): boolean {
    const last = this.lastFinished.get(key);
    return last !== undefined ? last > since : this.forgottenUpTo > since;
  }

  private remember(key: string): void {
    this.finished++;
    this.lastFinished.delete(key);
    this.lastFinished.set(key, this.finished);
    if (this.lastFinished.size <= REMEMBERED_KEYS) return;
    for (const [oldest, at] of this.lastFinished) {
      this.lastFinished.delete(oldest);
      this.forgottenUpTo = at;
      break;
    }
  }
}
