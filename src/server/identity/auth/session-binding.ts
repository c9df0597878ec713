import { constantTimeEqual, randomToken, sha256 } from '../../platform/crypto.js';

/**
 * A web session's refresh tokens are bound to the browser that signed in. The web client keeps
 * its refresh token where page scripts can read it (the specification's `secure_refresh_token`),
 * so the server also sets an HttpOnly cookie holding a random secret and keeps the secret's hash
 * with the session: a refresh token copied out of the page is refused without that cookie.
 * The desktop keeps its token in the main process, out of the page's reach, and is not bound.
 */

/** The API client (`API_KEYS` name) whose sessions are bound: the browser portal. */
export const WEB_CLIENT = 'web';

export interface SessionBinding {
  /** Goes to the browser in the cookie only. */
  secret: string;
  /** Kept with the session. */
  hash: string;
}

/** A new binding for a session signed in by `client`, or null when that client is not bound. */
export function newSessionBinding(client: string | null | undefined): SessionBinding | null {
  if (client !== WEB_CLIENT) return null;
  const secret = randomToken();
  return { secret, hash: sha256(secret) };
}

/**
 * Whether a refresh may go on: a bound session needs its cookie's secret, whoever presents the
 * token (client keys are public, so a thief could name another client), and the web client's
 * tokens are all bound, so one of its refreshes with an unbound session is a copied token.
 */
export function bindingHolds(
  bindingHash: string | null,
  presented: { client: string | null | undefined; secret: string | undefined },
): boolean {
  if (bindingHash === null) return presented.client !== WEB_CLIENT;
  return presented.secret !== undefined && constantTimeEqual(sha256(presented.secret), bindingHash);
}

// The secret travels from the service that made it to the hook that sets the cookie beside the
// token answer, never in it: the answer object is the key, so every route that starts a session
// (sign-in, second factor, passkey, invitation) sets the cookie without knowing about it.
const secrets = new WeakMap<object, string>();

export function attachBinding<T extends object>(answer: T, binding: SessionBinding | null): T {
  if (binding) secrets.set(answer, binding.secret);
  return answer;
}

export const bindingSecretOf = (answer: unknown): string | undefined =>
  answer !== null && typeof answer === 'object' ? secrets.get(answer) : undefined;
