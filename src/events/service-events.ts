import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../config/config.js';
import type { Database } from '../db/database.js';
import type { EventBus } from './event-bus.js';
import { EventHub } from './event-hub.js';
import { InProcessEventBus } from './in-process-event-bus.js';
import { PostgresEventBus } from './postgres-event-bus.js';

/** The bus the services publish on and the hub the streams read, as app.ts wires them. */
export interface ServiceEvents {
  readonly bus: EventBus;
  readonly hub: EventHub;
  /** PostgreSQL: resolves once other instances' events are heard (or the first try failed; it retries). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** On PostgreSQL events fan out through LISTEN/NOTIFY; on SQLite they stay in process (DECISIONS.md §10). */
export function createServiceEvents(
  database: DatabaseConfig,
  db: Kysely<Database>,
  onTrouble: (message: string) => void,
): ServiceEvents {
  const hub = new EventHub();
  if (database.kind === 'sqlite') {
    return {
      bus: new InProcessEventBus(hub),
      hub,
      start: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
  }
  const bus = new PostgresEventBus(db, hub, {
    connectionString: database.url,
    ...(database.schema === undefined ? {} : { options: `-c search_path=${database.schema}` }),
    onTrouble,
  });
  return { bus, hub, start: () => bus.start(), close: () => bus.close() };
}
