import type { RepositoryAdapter, ResourceDescription } from '../../repository-adapters/repository-adapter.js';
import type { JobScope } from '../curation-job.js';

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
}

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
 * `concurrency` describes are in flight; what is pending is a stack of child lists (depth first), so memory
 * grows with the concurrency and the width of the containers on the current path, never with the tree.
 * A context that cannot be described throws (the scope does not exist); any other resource that cannot is
 * yielded with its error. Stopping the iteration early waits for the requests in flight, unobserved.
 */
export async function* walkScope<T = undefined>(
  adapter: RepositoryAdapter,
  contextUri: string,
  scope: JobScope,
  options: ScopeWalkOptions<T>,
): AsyncGenerator<ScopeEntry<T>> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const then = options.then ?? (() => Promise.resolve(undefined as T));
  const context = await adapter.describe(contextUri);
  const pending: Frame[] = [];
  const recurse = scope === 'SUBTREE';
  if (scope !== 'RESOURCE' && context.children.length > 0) pending.push({ uris: context.children, next: 0 });
  if (scope !== 'CHILDREN') yield { uri: contextUri, description: context, extra: await then(context) };

  const start = (uri: string): Slot<T> => ({
    // Never rejects: a failed describe is an entry, and an abandoned walk leaves no unhandled rejection.
    promise: adapter.describe(uri).then(
      async (description) => {
        if (recurse && description.children.length > 0) pending.push({ uris: description.children, next: 0 });
        return { uri, description, extra: await then(description) };
      },
      (error: unknown) => ({ uri, error: messageOf(error) }),
    ),
  });
  const nextUri = (): string | undefined => {
    for (let frame = pending.at(-1); frame !== undefined; frame = pending.at(-1)) {
      if (frame.next < frame.uris.length) return frame.uris[frame.next++];
      pending.pop();
    }
    return undefined;
  };

  const slots: Slot<T>[] = [];
  try {
    for (;;) {
      for (let uri = slots.length < concurrency ? nextUri() : undefined; uri !== undefined;) {
        slots.push(start(uri));
        uri = slots.length < concurrency ? nextUri() : undefined;
      }
      const oldest = slots.shift();
      if (oldest === undefined) return;
      yield await oldest.promise;
    }
  } finally {
    // A walk stopped early (cancel, too many resources) ends only once its requests have: nothing of it
    // goes on behind the caller's back.
    await Promise.all(slots.map((slot) => slot.promise));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
