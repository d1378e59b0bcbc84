import type { RepositoryAdapter } from '../../repository-adapters/repository-adapter.js';
import { AHEAD_PER_SLOT, type ScopeEntry, type ScopeWalkOptions } from './scope-walk.js';

/**
 * Describes each resource of a list (the hits of a QUERY scope, the members of a MEMBERS scope) and yields
 * the same `ScopeEntry`s a containment walk does, in the list's order: at most `concurrency` requests at once
 * (a describe and its `then` share a slot), a slot refilled as soon as its describe ends, a few entries per
 * slot ready ahead of the consumer. The list is pulled only as slots free up, so a list of 100 000 IRIs is
 * never held here: memory grows with the concurrency, not with the list. `found(1)` as each IRI is taken.
 *
 * A resource that cannot be described (gone since it was indexed, outside the view's root: the adapter refuses
 * it before any request) is yielded with its error. A list that fails (the index) throws. Stopping the
 * iteration early closes the list and waits for the requests in flight, unobserved.
 */
export async function* walkList<T = undefined>(
  adapter: RepositoryAdapter,
  uris: AsyncIterable<string>,
  options: ScopeWalkOptions<T>,
): AsyncGenerator<ScopeEntry<T>> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const then = options.then ?? (() => Promise.resolve(undefined as T));
  const found = options.found ?? (() => undefined);
  const source = uris[Symbol.asyncIterator]();
  // Each never rejects: a failed describe is an entry, and an abandoned walk leaves no unhandled rejection.
  const slots: Promise<ScopeEntry<T>>[] = [];
  let inFlight = 0;
  let stopped = false;
  // Set by the pull below, read by the consumer (an object: the compiler does not see the pull assign it).
  const list: { exhausted: boolean; failure?: { readonly error: unknown } } = { exhausted: false };
  // The one pull from the list in progress (a list is read by one caller at a time).
  let pulling: Promise<void> | undefined;
  // Tells a consumer waiting for an entry that one was started, or that the list ended or failed.
  let wake: () => void = () => undefined;

  const room = () =>
    !stopped &&
    !list.exhausted &&
    list.failure === undefined &&
    inFlight < concurrency &&
    slots.length < concurrency * AHEAD_PER_SLOT;

  const start = (uri: string) => {
    inFlight += 1;
    found(1);
    slots.push(
      adapter
        .describe(uri)
        .then(
          async (description): Promise<ScopeEntry<T>> => ({
            uri,
            description,
            extra: await then(description),
          }),
          (error: unknown) => ({ uri, error: messageOf(error) }),
        )
        .finally(() => {
          inFlight -= 1;
          fill();
        }),
    );
    wake();
  };

  const fill = () => {
    if (pulling !== undefined || !room()) return;
    pulling = (async () => {
      try {
        while (room()) {
          const next = await source.next();
          if (next.done === true) {
            list.exhausted = true;
            break;
          }
          start(next.value);
        }
      } catch (error) {
        list.failure = { error };
      } finally {
        pulling = undefined;
        wake();
      }
    })();
  };

  try {
    for (;;) {
      fill();
      if (list.failure !== undefined) throw list.failure.error;
      const oldest = slots.shift();
      if (oldest !== undefined) {
        const entry = await oldest;
        // Its place ahead of the consumer is free again.
        fill();
        yield entry;
        continue;
      }
      if (list.exhausted && pulling === undefined) return;
      // Nothing started yet: the pull under way starts one, or ends the list (either wakes this).
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    // A walk stopped early (cancel, too many resources, a failed list) takes nothing more from the list, closes
    // it (an index cursor is released) and ends only once its requests have.
    stopped = true;
    await pulling;
    await Promise.all(slots);
    if (!list.exhausted && list.failure === undefined) await source.return?.();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
