import { loadConfig, type Config } from '../../../src/config/config.js';
import { connectDatabase, type DatabaseHandle } from '../../../src/db/connect.js';
import { migrateToLatest } from '../../../src/db/migrations/migrate.js';
import type { DeliveryWorkerSettings } from '../../../src/notifications/delivery-worker.js';
import {
  createNotifications,
  type Notifications,
} from '../../../src/notifications/notification-part.routes.js';
import { NotificationStore } from '../../../src/notifications/notification.store.js';
import { PasswordCipher } from '../../../src/repository-views/password-cipher.js';
import { createTestDatabase, type TestDatabase } from '../test-database.js';

export const FIXTURE_PUBLIC_URL = 'https://scriptorium.example.org';

export interface NotificationOptions {
  readonly config?: Partial<Config>;
  readonly worker?: Partial<DeliveryWorkerSettings>;
  readonly ownConnection?: boolean;
}

export interface NotificationFixture {
  readonly handle: DatabaseHandle;
  readonly store: NotificationStore;
  readonly cipher: PasswordCipher;
  readonly viewId: number;
  readonly warnings: string[];
  /**
   * Notifications as app.ts builds them, over the same database; `ownConnection` gives them a connection
   * pool of their own on PostgreSQL (another instance).
   */
  notifications(options?: NotificationOptions): Notifications;
  close(): Promise<void>;
}

/** A fresh database of the dialect under test with one repository view ("Archive"). */
export async function notificationFixture(): Promise<NotificationFixture> {
  const database: TestDatabase = await createTestDatabase();
  const handle = connectDatabase(database.config);
  await migrateToLatest(handle.db, handle.dialect);
  const view = await handle.db
    .insertInto('repository_views')
    .values({
      type: 'FEDORA',
      name: 'Archive',
      root_uri: 'http://example.org/rest/',
      username: null,
      password_encrypted: null,
      dialect: null,
      detected_dialect: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cipher = new PasswordCipher('notification-fixture-secret');
  const warnings: string[] = [];
  const built: Notifications[] = [];
  const handles: DatabaseHandle[] = [];
  return {
    handle,
    store: new NotificationStore(handle.db),
    cipher,
    viewId: view.id,
    warnings,
    notifications: (options: NotificationOptions = {}) => {
      const config: Config = {
        ...loadConfig({ SCRIPTORIUM_PUBLIC_URL: FIXTURE_PUBLIC_URL }),
        database: database.config,
        ...options.config,
      };
      // SQLite (in memory here) is one process's database: another instance is another PostgreSQL pool.
      const own =
        options.ownConnection === true && database.config.kind === 'postgres'
          ? connectDatabase(database.config)
          : undefined;
      if (own !== undefined) handles.push(own);
      const made = createNotifications({
        db: (own ?? handle).db,
        config,
        cipher,
        viewName: async (id) =>
          (
            await handle.db
              .selectFrom('repository_views')
              .select('name')
              .where('id', '=', id)
              .executeTakeFirst()
          )?.name,
        warn: (message) => warnings.push(message),
        // Tests drive passes themselves unless they start the worker; no wait between retries by default.
        worker: { pollMs: 20, timeoutMs: 2_000, retryDelaysMs: [0, 0], ...options.worker },
      });
      built.push(made);
      return made;
    },
    close: async () => {
      for (const made of built) await made.stop?.();
      for (const own of handles) await own.db.destroy();
      await handle.db.destroy();
      await database.drop();
    },
  };
}
