// What the store refuses, by meaning. The store knows nothing of HTTP: the embedded repository's HTTP
// layer (http/store-errors.ts) decides the status and the answer for each.

/** Base of the store's refusals, so the HTTP layer can tell them from failures. */
abstract class StoreError extends Error {}

/** A write lost a race with another writer (revision changed between read and write). */
export class RevisionConflict extends StoreError {
  override readonly name = 'RevisionConflict';

  constructor(readonly path: string) {
    super(`Resource ${path} changed concurrently`);
  }
}

/** A resource was to be created under a parent that does not exist. */
export class ParentMissing extends StoreError {
  override readonly name = 'ParentMissing';

  constructor(readonly path: string) {
    super(`The parent of ${path} does not exist`);
  }
}

/** A live transaction other than the writer's holds the lock on a path. */
export class LockHeld extends StoreError {
  override readonly name = 'LockHeld';

  constructor(readonly path: string) {
    super(`Resource /${path} is being changed by another transaction`);
  }
}

/** The transaction named by Atomic-ID is not usable (unknown, finished or expired). */
export class TransactionUnusable extends StoreError {
  override readonly name = 'TransactionUnusable';

  constructor(
    readonly id: string,
    readonly reason: 'unknown' | 'finished' | 'expired',
  ) {
    super(
      `Transaction ${id} is ${reason === 'unknown' ? 'unknown' : reason === 'expired' ? 'expired' : 'no longer open'}`,
    );
  }
}

/** Purging a tombstone is not a change a transaction can stage. */
export class PurgeInTransaction extends StoreError {
  override readonly name = 'PurgeInTransaction';

  constructor(readonly path: string) {
    super('Tombstones cannot be purged inside a transaction');
  }
}

/** A memento with that timestamp (one per second) or that label already exists for the resource. */
export class MementoExists extends StoreError {
  override readonly name = 'MementoExists';

  constructor(
    readonly path: string,
    readonly memento: string,
    readonly label: string | null,
  ) {
    super(
      label === null
        ? `A memento for ${memento} already exists (one per second)`
        : `A memento with the label "${label}" or for ${memento} already exists`,
    );
  }
}

/** Every refusal of the store; `name` tells them apart. */
export type StoreRefusal =
  RevisionConflict | ParentMissing | LockHeld | TransactionUnusable | PurgeInTransaction | MementoExists;

export function isStoreRefusal(error: unknown): error is StoreRefusal {
  return error instanceof StoreError;
}
