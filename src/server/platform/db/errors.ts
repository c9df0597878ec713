/** True for a unique-constraint violation on either dialect (a lost race to insert the same key). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when a row is still referenced (or refers to one that is gone) on either dialect. */
export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Runs a write that may hit a unique key already taken (a lost race included): that violation
 * becomes the caller's own error (`taken`, a 409 in its words); any other error passes through.
 */
export async function refuseDuplicate<T>(write: () => Promise<T>, taken: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** True when PostgreSQL ended the transaction to break a deadlock or a serialization conflict: run it again. */
export function isRetryableConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const code = (error as { code: unknown }).code;
  return code === '40P01' || code === '40001';
}
