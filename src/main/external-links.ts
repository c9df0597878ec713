/**
 * Whether a link may open in the system browser: https only, no user name or password in it, and
 * a host on the allow-list (or a subdomain of one). Anything else is dropped.
 */
export function isAllowedExternalUrl(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username || parsed.password) return false;
  const host = parsed.hostname.toLowerCase();
  return allowedHosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}
