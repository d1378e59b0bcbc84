import type {
  TransactionFacet,
  TransactionInfo,
  TransactionRef,
} from '../../repository-adapters/repository-adapter.js';
import type { WriteSink } from './job-work.js';

/*
 * The upkeep of the one repository transaction of a FEDORA apply or undo (write-changes.ts): rolled back
 * with its outcome told, kept alive while it is long, its end told to the runner (which records it).
 */

/** Rolls back, answering what to add to the message when even that failed (the repository expires it). */
export async function rollback(
  transactions: TransactionFacet,
  tx: TransactionRef,
  sink: WriteSink,
): Promise<string> {
  try {
    await transactions.rollback(tx);
    await closed(sink, tx);
    return ' (the transaction was rolled back)';
  } catch (error) {
    return ` (the transaction could not be rolled back and will expire: ${messageOf(error)})`;
  }
}

/** Tells the sink the transaction is over; a record left behind is harmless (rolling it back finds it gone). */
export async function closed(sink: WriteSink, tx: TransactionRef): Promise<void> {
  await sink.closed?.(tx).catch(() => undefined);
}

/**
 * Keeps a long transaction alive: once half its lifetime has passed, the next resource refreshes it first
 * (one refresh at a time, however many resources are in flight).
 */
export function keeper(transactions: TransactionFacet, tx: TransactionRef, begun: TransactionInfo) {
  let info = begun;
  const halfLife = Math.max(0, begun.expiresAt - Date.now()) / 2;
  let refreshing: Promise<void> | undefined;
  return async (): Promise<void> => {
    if (Date.now() < info.expiresAt - halfLife) return;
    refreshing ??= transactions.refresh(tx).then(
      (renewed) => {
        info = renewed;
        refreshing = undefined;
      },
      (error: unknown) => {
        refreshing = undefined;
        throw new Error(`The repository transaction could not be kept open: ${messageOf(error)}`);
      },
    );
    await refreshing;
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
