/**
 * The address another sign-in page passed along (`{ email }` as the navigation's state), so a
 * visitor never types it twice between sign-in, registration and password recovery.
 */
export const passedEmail = (state: unknown): string => {
  const email = (state as { email?: unknown } | null)?.email;
  return typeof email === 'string' ? email : '';
};
