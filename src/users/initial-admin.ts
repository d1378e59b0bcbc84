import { isUniqueViolation } from '../db/sql-errors.js';
import { generatePassword, hashPassword } from './password.js';
import { normalizeUsername } from './user.js';
import type { UserStore } from './user.store.js';

/**
 * First start (no administrator yet — the table is empty, or the CLI added only other roles): create the
 * administrator from SCRIPTORIUM_ADMIN_USERNAME / SCRIPTORIUM_ADMIN_PASSWORD. Without a password one is generated and printed once to the log (the only
 * time a credential is ever logged). Later starts never touch an existing user.
 */
export async function ensureInitialAdmin(
  store: UserStore,
  settings: { adminUsername: string; adminPassword: string | undefined },
  // The two levels used, typed here so that user code needs no Fastify import; the app's logger fits.
  log: { info(message: string): void; warn(message: string): void },
): Promise<void> {
  if ((await store.countWithRole('ROLE_ADMIN')) > 0) return;
  const username = normalizeUsername(settings.adminUsername);
  const password = settings.adminPassword ?? generatePassword();
  try {
    await store.insert({
      username,
      passwordHash: await hashPassword(password),
      role: 'ROLE_ADMIN',
      firstName: '',
      lastName: '',
      email: '',
    });
  } catch (error) {
    // Another instance created it first, or a non-admin user already has the name: never overwrite.
    if (isUniqueViolation(error)) {
      log.warn(`No administrator was created: the username "${username}" is already taken`);
      return;
    }
    throw error;
  }
  if (settings.adminPassword === undefined) {
    log.warn(
      `Created administrator "${username}" with generated password: ${password} (shown only this once; change it with POST /user/password)`,
    );
  } else {
    log.info(`Created administrator "${username}" with the password from SCRIPTORIUM_ADMIN_PASSWORD`);
  }
}
