import { DEFAULT_ROLE } from '../../../shared/constants';

/** The access-token claims the portal reads: role (or user_role) and exp in seconds. */
export interface TokenClaims {
  exp?: number;
  role?: string;
  user_role?: string;
  sub?: string;
}

/** Reads a JWT's claims without checking its signature: only the server can trust a token. */
export function decodeToken(token: string | null | undefined): TokenClaims | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
    const claims: unknown = JSON.parse(json);
    return claims !== null && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

/** Valid only if the token exists, decodes and its exp is in the future. */
export function isTokenValid(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  const exp = decodeToken(token)?.exp;
  return typeof exp === 'number' && exp * 1000 > nowMs;
}

/** The role comes from the token (role or user_role); a missing role means 'user'. */
export function roleFromToken(token: string | null | undefined): string {
  const claims = decodeToken(token);
  return claims?.role ?? claims?.user_role ?? DEFAULT_ROLE;
}

/** Milliseconds until the token expires, or null when it has no readable expiry. */
export function tokenLifetimeMs(token: string | null | undefined, nowMs: number = Date.now()): number | null {
  const exp = decodeToken(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 - nowMs : null;
}
