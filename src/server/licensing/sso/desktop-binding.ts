import { createHash, timingSafeEqual } from 'node:crypto';
import type { SsoDesktopStart } from '../../../shared/api/organisation-sso.js';
import { sha256 } from '../../platform/crypto.js';
import type { SsoSignInsTable } from '../../platform/db/tables-organisations.js';

/*
 * What ties a single sign-on to whoever started it. On the web, the cookie of the browser that
 * started (the callback of a sign-in started elsewhere is refused). The desktop app signs in
 * through the system browser, which holds no cookie of the app's: there the sign-in is bound to the
 * app's main process by a PKCE-like challenge, and the hand-over code comes back to the app's
 * loopback listener, where only the holder of the verifier can trade it (docs/architecture.md).
 */

/** The browser's cookie secret, or the desktop app's challenge and loopback port. */
export type SsoBinding = { browserSecret: string } | { desktop: SsoDesktopStart };

/** The sign-in row's columns for the binding. */
export const bindingColumns = (
  binding: SsoBinding,
): Pick<SsoSignInsTable, 'browser_hash' | 'desktop_challenge' | 'desktop_port'> =>
  'desktop' in binding
    ? {
        browser_hash: '',
        desktop_challenge: binding.desktop.code_challenge,
        desktop_port: binding.desktop.port,
      }
    : { browser_hash: sha256(binding.browserSecret), desktop_challenge: null, desktop_port: null };

/** Where the desktop app's loopback listener takes the sign-in's end (RFC 8252's loopback redirect). */
export function desktopReturn(port: number, params: Record<string, string>): string {
  const url = new URL(`http://127.0.0.1:${port}/sso`);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}

/** Whether `verifier` is the one whose base64url SHA-256 is `challenge` (PKCE's S256). */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (verifier === undefined) return false;
  const digest = createHash('sha256').update(verifier).digest();
  const expected = Buffer.from(challenge, 'base64url');
  return expected.length === digest.length && timingSafeEqual(digest, expected);
}
