import type { RepositoryStore } from './store/repository.store.js';

export const REAP_INTERVAL_MS = 5_000;

/** The one level used, typed here so that this module needs no Fastify import; the app's logger fits. */
export interface ReaperLog {
  warn(details: { err: unknown }, message: string): void;
}

/**
 * Rolls back the embedded repository's expired transactions every few seconds and hands the content
 * digests they held to `release` (which removes the files no longer referenced). `stop` (the app's
 * onClose) clears the timer and waits for a reap under way, so none outlives the database.
 */
export function startTransactionReaper(
  store: Pick<RepositoryStore, 'reapExpired'>,
  release: (digests: readonly string[]) => void,
  log: ReaperLog,
  intervalMs = REAP_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = store.reapExpired(Date.now()).then(release, (error: unknown) => {
      log.warn({ err: error }, 'embedded repository: could not reap expired transactions');
    });
  }, intervalMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
