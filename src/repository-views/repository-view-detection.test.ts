import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/roles.js';
import { connectDatabase, type DatabaseHandle } from '../db/connect.js';
import { dataVersionOf } from '../db/data-version.js';
import { migrateToLatest } from '../db/migrations/migrate.js';
import { PostgresChangeFeed } from '../db/postgres-change-feed.js';
import type { AdapterView } from '../repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../repository-adapters/repository-adapter.js';
import { checkBody } from '../shared/body-check.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.js';
import { PasswordCipher } from './password-cipher.js';
import { RepositoryViewBody, VerificationBody } from './repository-view.schema.js';
import { RepositoryViewService } from './repository-view.service.js';
import { RepositoryViewStore } from './repository-view.store.js';

/**
 * What the service hands `createAdapter` (issue 11): the view's pinned dialect, and a way to store what
 * detection finds, for the configuration it was found for. The adapter is a stub that only records what
 * it was given, so these hold whichever adapter implements detection.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let service: RepositoryViewService;
let store: RepositoryViewStore;
let made: AdapterView[];
let warnings: string[];

const ADMIN: Principal = {
  userId: 1,
  username: 'admin',
  role: 'ROLE_ADMIN',
  tokenHash: 'x',
  expiresAt: Number.MAX_SAFE_INTEGER,
};
const VIEW = {
  type: 'FEDORA',
  name: 'Stubbed',
  rootUri: 'http://stub.example.org/rest/',
  username: 'fedoraAdmin',
  password: 'secret-one',
};

beforeEach(async () => {
  database = await createTestDatabase();
  handle = connectDatabase(database.config);
  await handle.listening;
  await migrateToLatest(handle.db, handle.dialect);
  made = [];
  warnings = [];
  store = new RepositoryViewStore(handle.db);
  service = new RepositoryViewService(store, new PasswordCipher('test'), {
    schemas: () => Promise.resolve([]),
    users: () => Promise.resolve([]),
    createAdapter: (view) => {
      made.push(view);
      return {} as RepositoryAdapter;
    },
    warn: (message) => warnings.push(message),
  });
});
afterEach(async () => {
  await handle.db.destroy();
  await database.drop();
});

/** Until the caches heard of every write so far (PostgreSQL notifies asynchronously). */
async function settled(): Promise<void> {
  const version = dataVersionOf(handle.db);
  if (version instanceof PostgresChangeFeed) await version.settled();
}

async function create(view: Record<string, unknown>) {
  return service.create(checkBody(RepositoryViewBody, view));
}

async function update(view: Record<string, unknown>) {
  const updated = await service.update(checkBody(RepositoryViewBody, view), ADMIN);
  await settled();
  return updated;
}

/** Opens the view and, when its adapter was new, lets "detection" find `found`; waits until stored. */
async function openAndDetect(id: number, found: 'FEDORA_4' | 'FEDORA_5' | 'FEDORA_6' | 'LDP') {
  const before = made.length;
  await service.open('FEDORA', id, ADMIN);
  const adapter = made[before];
  adapter?.onDetected?.(found);
  // The store's write runs behind the call: wait until it has, and the caches know (a deadline, not a
  // count of turns: on a loaded PostgreSQL the write and its notification can take a while).
  const deadline = Date.now() + 10_000;
  while ((await service.get(id, ADMIN)).detectedDialect !== found && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await settled();
  }
  return adapter;
}

describe('RepositoryViewService.open and the dialect', () => {
  it('detects for a view without a dialect and stores what was found', async () => {
    const view = await create(VIEW);
    const adapter = await openAndDetect(view.id, 'FEDORA_5');
    expect(adapter).toMatchObject({ type: 'FEDORA', dialect: null, password: 'secret-one' });
    expect(typeof adapter?.onDetected).toBe('function');
    expect((await service.get(view.id, ADMIN)).detectedDialect).toBe('FEDORA_5');
    // The adapter is kept: a stored detection is no new configuration.
    await service.open('FEDORA', view.id, ADMIN);
    expect(made).toHaveLength(1);
  });

  it('passes a pinned dialect without onDetected, and pinning makes a new adapter', async () => {
    const view = await create(VIEW);
    await service.open('FEDORA', view.id, ADMIN);
    await update({ ...VIEW, id: view.id, password: null, dialect: 'FEDORA_4' });
    await service.open('FEDORA', view.id, ADMIN);
    expect(made).toHaveLength(2);
    expect(made[1]).toMatchObject({ dialect: 'FEDORA_4' });
    expect(made[1]?.onDetected).toBeUndefined();
  });

  it('does not store a detection made for a configuration the view no longer has', async () => {
    const view = await create(VIEW);
    await service.open('FEDORA', view.id, ADMIN);
    const stale = made[0];
    await update({ ...VIEW, id: view.id, password: null, rootUri: 'http://stub.example.org/other/' });
    stale?.onDetected?.('FEDORA_4');
    // A detection for the current configuration, told after the stale one, is stored, and only it.
    await openAndDetect(view.id, 'FEDORA_6');
    expect((await service.get(view.id, ADMIN)).detectedDialect).toBe('FEDORA_6');
    expect(warnings).toEqual([]);
  });

  it('stores a detection only while the view has the configuration it was made for', async () => {
    const view = await create(VIEW);
    const encrypted = (await store.findEncryptedPassword(view.id)) ?? null;
    const current = {
      type: 'FEDORA' as const,
      rootUri: VIEW.rootUri,
      username: VIEW.username,
      passwordEncrypted: encrypted,
    };
    const stale = [
      { ...current, type: 'LDP' as const },
      { ...current, rootUri: 'http://stub.example.org/other/' },
      { ...current, username: null },
      { ...current, username: 'someoneElse' },
      { ...current, passwordEncrypted: null },
      { ...current, passwordEncrypted: new PasswordCipher('test').encrypt(VIEW.password) },
    ];
    for (const configuration of stale)
      expect(
        await store.recordDetected(view.id, configuration, 'FEDORA_4'),
        JSON.stringify(configuration),
      ).toBe(false);
    expect(await store.recordDetected(view.id, current, 'FEDORA_4')).toBe(true);
    // The same finding again writes nothing.
    expect(await store.recordDetected(view.id, current, 'FEDORA_4')).toBe(false);
    await update({ ...VIEW, id: view.id, password: null, dialect: 'FEDORA_5' });
    // A pinned view keeps no detection.
    expect(await store.recordDetected(view.id, current, 'FEDORA_6')).toBe(false);
  });

  it('only warns when the detected dialect cannot be stored', async () => {
    const view = await create(VIEW);
    await service.open('FEDORA', view.id, ADMIN);
    await handle.db.destroy();
    made[0]?.onDetected?.('FEDORA_6');
    for (let turn = 0; turn < 50 && warnings.length === 0; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`Repository view ${view.id}: the detected dialect FEDORA_6 was not stored`);
    handle = connectDatabase(database.config);
  });

  it('verification passes the body’s dialect (absent: detect) and never stores a detection', async () => {
    await service.adapterForVerification(
      'FEDORA',
      checkBody(VerificationBody, { ...VIEW, dialect: 'FEDORA_4' }),
    );
    await service.adapterForVerification('FEDORA', checkBody(VerificationBody, VIEW));
    expect(made.map((view) => [view.dialect, view.onDetected])).toEqual([
      ['FEDORA_4', undefined],
      [null, undefined],
    ]);
  });
});
