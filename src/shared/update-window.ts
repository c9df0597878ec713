/**
 * What a perpetual license whose update window has ended says about the versions it covers: the
 * license check's message, shown by the app and the portal alike.
 */

/** A version as people say it: 2.3.0 reads 2.3, 2.3.1 and 2.4.0-beta.1 stay as they are. */
export const spokenVersion = (version: string): string => version.replace(/^(\d+\.\d+)\.0$/, '$1');

/**
 * "Your license covers versions up to 2.3. Renew updates to get 2.4 and later." `next` is the first
 * version past the window (the app's own, when it runs one); `covered` is null when no release was
 * published inside the window.
 */
export function coveredVersionMessage(covered: string | null, next: string | null): string {
  const renew =
    next === null
      ? 'Renew updates to get newer versions.'
      : `Renew updates to get ${spokenVersion(next)} and later.`;
  return covered === null
    ? `Your license's update window ended before any version was released. ${renew}`
    : `Your license covers versions up to ${spokenVersion(covered)}. ${renew}`;
}
