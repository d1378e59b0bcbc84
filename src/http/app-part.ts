import type { RouteModule } from './server.js';

/**
 * One capability assembled for the composition root (app.ts): its routes, and the work it runs beside them
 * (timers, queues, deliveries). Parts start once the app is ready, after curation jobs, in the order given;
 * they stop before curation jobs and the database, in the reverse order.
 */
export interface AppPart {
  readonly routes: readonly RouteModule[];
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/** Starts the parts in order; a part that fails to start fails the app's start. */
export async function startParts(parts: readonly AppPart[]): Promise<void> {
  for (const part of parts) await part.start?.();
}

/** Stops the parts in reverse order; each is stopped even when an earlier one fails (the first error is thrown). */
export async function stopParts(parts: readonly AppPart[]): Promise<void> {
  const failures: unknown[] = [];
  for (const part of [...parts].reverse()) {
    try {
      await part.stop?.();
    } catch (error) {
      failures.push(error);
    }
  }
  const [first] = failures;
  if (first instanceof Error) throw first;
  if (failures.length > 0) throw new Error(String(first));
}
