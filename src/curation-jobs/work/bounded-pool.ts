/**
 * Runs `work` for each item of `items` with at most `concurrency` at once, pulling items only as slots free
 * up (so a streamed source is never read ahead by more than the pool). Stops pulling once `stop()` is true;
 * the items already started still finish. Rejects with the first error `work` throws, after the others have
 * settled, so nothing runs on behind the caller's back.
 */
export async function forEachBounded<T>(
  items: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean = () => false,
): Promise<void> {
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let exhausted = false;
  const limit = Math.max(1, Math.floor(concurrency));
  try {
    while (failure === undefined && !stop()) {
      if (running.size >= limit) {
        await Promise.race(running);
        continue;
      }
      const next = await iterator.next();
      if (next.done === true) {
        exhausted = true;
        break;
      }
      // Never rejects: a failure is kept and ends the loop, the other tasks still settle.
      const task: Promise<void> = work(next.value).then(
        () => {
          running.delete(task);
        },
        (error: unknown) => {
          running.delete(task);
          failure ??= { error };
        },
      );
      running.add(task);
    }
  } catch (error) {
    failure ??= { error };
    exhausted = true; // a source that threw is finished
  }
  await Promise.all(running);
  if (!exhausted) await iterator.return?.();
  if (failure !== undefined) throw failure.error;
}
