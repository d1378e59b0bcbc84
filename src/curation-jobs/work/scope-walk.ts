import type { RepositoryAdapter, ResourceDescription } from '../../repository-adapters/repository-adapter.js';
import type { ContainmentScope } from '../curation-job.js';

/** One resource of a scope: described, or why it could not be. */
export type ScopeEntry<T> =
  | { readonly uri: string; readonly description: ResourceDescription; readonly extra: T }
  | { readonly uri: string; readonly error: string };

export interface ScopeWalkOptions<T> {
  /** Requests toward the repository at once (describes, plus whatever `then` sends). */
  readonly concurrency: number;
  /**
   * Work done for each in-scope resource inside the same slot as its describe (a fixity check), so that the
   * repository never sees more than `concurrency` requests of this walk at once.
   */
  readonly then?: (description: ResourceDescription) => Promise<T>;
  /**
   * `count` more resources are known to be in scope (the context, then each described container's child list
   * as soon as it is read), so a progress bar has a real total while the walk runs.
   */
  readonly found?: (count: number) => void;
}

/** Described entries kept ready for a slow consumer, per slot: bounds memory, never the repository's pace. */
export const AHEAD_PER_SLOT = 4;

/** A container's children still to be described, consumed from `next`. */
interface Frame {
  readonly uris: readonly string[];
  next: number;
}

interface Slot<T> {
  readonly promise: Promise<ScopeEntry<T>>;
}

/**
 * Walks RESOURCE (the context), CHILDREN (its direct children) or SUBTREE (the context and everything below
 * it) and yields each in-scope resource described once, in the order their describes were started. At most
 * `concurrency` describes are in flight, and a slot is refilled as soon as its describe ends (not when the
 * consumer reaches it: one slow resource does not idle the others), up to a few entries per slot ahead of the
 * consumer. What is pending is a stack of child lists (depth first), so memory grows with the concurrency
 * and the width of the containers on the current path, never with the tree.
 * A context that cannot be described throws (the scope does not exist); any other resource that cannot is
 * yielded with its error. Stopping the iteration early waits for the requests in flight, unobserved.
 */
export async function* walkScope<T = undefined>(
  adapter: RepositoryAdapter,
  contextUri: string,
  scope: ContainmentScope,
  options: ScopeWalkOptions<T>,
): AsyncGenerator<ScopeEntry<T>> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const then = options.then ?? (() => Promise.resolve(undefined as T));
  const found = options.found ?? (() => undefined);
  const context = await adapter.describe(contextUri);
  const pending: Frame[] = [];
  const recurse = scope === 'SUBTREE';
  const push = (children: readonly string[]) => {
    if (children.length === 0) return;
    pending.push({ uris: children, next: 0 });
    found(children.length);
  };
  if (scope !== 'CHILDREN') found(1);
  if (scope !== 'RESOURCE') push(context.children);
  if (scope !== 'CHILDREN') yield { uri: contextUri, description: context, extra: await then(context) };

  const nextUri = (): string | undefined => {
    for (let frame = pending.at(-1); frame !== undefined; frame = pending.at(-1)) {
      if (frame.next < frame.uris.length) return frame.uris[frame.next++];
      pending.pop();
    }
    return undefined;
  };

  const start = (uri: string): Slot<T> => ({
    // Never rejects: a failed describe is an entry, and an abandoned walk leaves no unhandled rejection.
    promise: adapter
      .describe(uri)
      .then(
        async (description): Promise<ScopeEntry<T>> => {
          if (recurse) push(description.children);
          return { uri, description, extra: await then(description) };
        },
        (error: unknown) => ({ uri, error: messageOf(error) }),
      )
      .finally(() => {
        inFlight -= 1;
        fill();
      }),
  });
  const slots: Slot<T>[] = [];
  let inFlight = 0;
  let stopped = false;
  const fill = () => {
    while (!stopped && inFlight < concurrency && slots.length < concurrency * AHEAD_PER_SLOT) {
      const uri = nextUri();
      if (uri === undefined) return;
      inFlight += 1;
      slots.push(start(uri));
    }
  };
  try {
    for (;;) {
      fill();
      const oldest = slots.shift();
      if (oldest === undefined) return;
      const entry = await oldest.promise;
      // Its place ahead of the consumer is free again.
      fill();
      yield entry;
    }
  } finally {
    // A walk stopped early (cancel, too many resources) starts nothing more and ends only once its requests
    // have: nothing of it goes on behind the caller's back.
    stopped = true;
    await Promise.all(slots.map((slot) => slot.promise));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
