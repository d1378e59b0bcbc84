/** Thrown when a task would have to wait behind a full queue. */
export class QueueFullError extends Error {
  constructor() {
    super('Too many tasks are waiting');
    this.name = 'QueueFullError';
  }
}

/**
 * Runs at most `concurrency` tasks at once; later ones wait in order. A caller that can be told "busy"
 * passes `refuseWhenFull` and gets a QueueFullError instead of joining a queue already `maxWaiting` long;
 * other callers always wait (they are few and already authenticated).
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>, options: { refuseWhenFull?: boolean } = {}): Promise<T> {
    if (this.running >= this.concurrency) {
      if (options.refuseWhenFull === true && this.waiting.length >= this.maxWaiting)
        throw new QueueFullError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next waiter, so `running` never exceeds the limit.
      const next = this.waiting.shift();
      if (next === undefined) this.running -= 1;
      else next();
    }
  }
}
