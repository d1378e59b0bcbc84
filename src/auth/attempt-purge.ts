import type { FastifyInstance } from 'fastify';
import type { AuthService } from './auth.service.js';

export const ATTEMPT_PURGE_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Deletes sign-in attempts past the lock-out window every few minutes, so rows left by guesses that
 * never end in a success (unknown usernames, a guesser giving up) do not pile up. Stopped on close.
 */
export function startAttemptPurge(
  app: FastifyInstance,
  auth: Pick<AuthService, 'purgeOldAttempts'>,
  intervalMs = ATTEMPT_PURGE_INTERVAL_MS,
): void {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = auth.purgeOldAttempts().then(
      (removed) => {
        if (removed > 0) app.log.debug({ removed }, 'purged old sign-in attempts');
      },
      (error: unknown) => {
        app.log.warn({ err: error }, 'could not purge old sign-in attempts');
      },
    );
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    // A purge under way finishes before the database closes.
    await running;
  });
}
