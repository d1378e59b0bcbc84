import {
  CHANGED,
  CLEARED,
  ConfigRecorder,
  configEntry,
  type ConfigFields,
  type Describe,
} from '../audit/config-change.js';
import type { Schema } from '../schemas/schema.js';
import { compareCodeUnits } from '../shared/compare.js';
import type { User } from '../users/user.js';
import type { RepositoryView } from './repository-view.js';
import type { PasswordColumn, StoredRecord } from './repository-view.store.js';

/**
 * What the ledger says of a view's changes (DECISIONS.md §14): its settings, its schemas by abbreviation
 * and its curators by username (names a reader knows, and that outlive a deleted user), and of its
 * password only that it was set or cleared, never the password or its ciphertext.
 */
export interface ViewLinkSources {
  readonly schemas: () => Promise<readonly Schema[]>;
  readonly users: () => Promise<User[]>;
}

/** The `describe` of a create; `passwordSet` when the view was given a password. */
export async function viewCreated(
  sources: ViewLinkSources,
  passwordSet: boolean,
): Promise<Describe<StoredRecord>> {
  return (await recorder(sources)).created(passwordSet ? { password: CHANGED } : {});
}

/** The `describe` of an update of `existing`, storing `password` (undefined: the stored one is kept). */
export async function viewUpdated(
  sources: ViewLinkSources,
  existing: RepositoryView,
  password: PasswordColumn,
): Promise<Describe<StoredRecord | undefined>> {
  const extra: ConfigFields =
    typeof password === 'string'
      ? { password: CHANGED }
      : password === null && existing.hasPassword
        ? { password: CLEARED }
        : {};
  return (await recorder(sources)).updated(existing, extra);
}

/** The `describe` of a delete of `existing`. */
export function viewDeleted(existing: RepositoryView): Describe<boolean> {
  return (deleted) =>
    deleted ? [configEntry('repository-view.delete', { id: existing.id, name: existing.name })] : [];
}

async function recorder(sources: ViewLinkSources): Promise<ConfigRecorder<StoredRecord>> {
  const [schemas, users] = await Promise.all([sources.schemas(), sources.users()]);
  const abbreviations = new Map(schemas.map((schema) => [schema.id, schema.abbreviation]));
  const usernames = new Map(users.map((user) => [user.id, user.username]));
  return new ConfigRecorder<StoredRecord>(
    'repository-view',
    (view) => ({ id: view.id, name: view.name }),
    (view) => ({
      type: view.type,
      name: view.name,
      rootUri: view.rootUri,
      username: view.username,
      dialect: view.dialect,
      // In the view's order (it orders the query help's prefixes); an id not found is kept as one.
      schemas: view.schemaIds.map((id) => abbreviations.get(id) ?? id),
      curators: view.curatorIds.map((id) => usernames.get(id) ?? String(id)).sort(compareCodeUnits),
    }),
  );
}
