import type { RepositoryViewStore } from './repository-view.store.js';
import type { PasswordCipher } from './password-cipher.js';

export const DEFAULT_VIEW_NAME = 'Embedded repository';

/**
 * First start with the embedded repository on: a FEDORA view pointing at it, with its credentials, so
 * a new installation is usable at once. Seeded once per database; deleting it later is respected.
 */
export async function ensureDefaultView(
  store: RepositoryViewStore,
  cipher: PasswordCipher,
  embedded: { rootUri: string; username: string; password: string; schemaIds: readonly number[] },
): Promise<void> {
  await store.seedOnce('default-repository-view', Date.now(), async () => {
    if ((await store.findIdByName(DEFAULT_VIEW_NAME)) !== undefined) return;
    await store.insert(
      {
        type: 'FEDORA',
        name: DEFAULT_VIEW_NAME,
        rootUri: embedded.rootUri,
        username: embedded.username,
        schemaIds: embedded.schemaIds,
        curatorIds: [],
        // Detected like any view: the embedded repository answers as SCRIPTORIUM_REPOSITORY_DIALECT says.
        dialect: null,
      },
      cipher.encrypt(embedded.password),
    );
  });
}
