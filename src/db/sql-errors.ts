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

/**
 * Recognises a foreign-key violation on either dialect (a row still referenced, e.g. a schema a
 * repository view took between a service's check and its delete).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  // 23503: PostgreSQL foreign_key_violation. better-sqlite3: SQLITE_CONSTRAINT_FOREIGNKEY, or
  // SQLITE_CONSTRAINT_TRIGGER "FOREIGN KEY constraint failed" for an ON DELETE RESTRICT reference.
  if (error.code === '23503' || error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return true;
  return (
    error.code === 'SQLITE_CONSTRAINT_TRIGGER' &&
    error instanceof Error &&
    error.message.includes('FOREIGN KEY constraint failed')
  );
}
