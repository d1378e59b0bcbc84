/**
 * Recognises a unique-constraint violation on either dialect, so a race between two inserts of the same
 * name ends as a validation message rather than a 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = error.code;
  // 23505: PostgreSQL unique_violation; SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY: better-sqlite3.
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
