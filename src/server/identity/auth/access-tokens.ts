import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { AccessTokenClaims } from '../../../shared/api/auth.js';
import { USER_ROLES, type UserRole } from '../../../shared/constants.js';
import type { Clock } from '../../platform/clock.js';
import { unauthorized } from '../../platform/http-error.js';

// One algorithm, pinned on both sides: a token naming another (or `none`) never verifies.
const ALGORITHM = 'HS256';

/** How far ahead of this server's clock another instance's clock may run when it issues a token. */
export const MAX_CLOCK_SKEW_SECONDS = 60;

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface AccessTokenSettings {
  secret: Uint8Array;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

export interface AccessTokens {
  issue(user: {
    id: string;
    role: UserRole;
    sessionVersion: number;
    /** The refresh family the token is issued from: ending that session ends the token too. */
    sessionId: string;
  }): Promise<{ token: string; expiresIn: number }>;
  /** Resolves to the claims of a valid token; rejects with a 401 {@link HttpError} otherwise. */
  verify(token: string): Promise<AccessTokenClaims>;
}

export const invalidTokenError = () => unauthorized('invalid_token', 'Invalid or expired token');

export function createAccessTokens(settings: AccessTokenSettings, clock: Clock): AccessTokens {
  return {
    async issue(user) {
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      const token = await new SignJWT({ role: user.role, sv: user.sessionVersion, sid: user.sessionId })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(settings.issuer)
        .setAudience(settings.audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + settings.ttlSeconds)
        .setJti(randomUUID())
        .sign(settings.secret);
      return { token, expiresIn: settings.ttlSeconds };
    },

    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, settings.secret, {
          algorithms: [ALGORITHM],
          issuer: settings.issuer,
          audience: settings.audience,
          currentDate: clock.now(),
          requiredClaims: ['sub', 'exp', 'iat', 'jti'],
        });
        if (!Number.isInteger(payload['sv'])) throw invalidTokenError();
        if (typeof payload['sid'] !== 'string' || !SESSION_ID.test(payload['sid'])) throw invalidTokenError();
        // This server never issues a token that lives longer than the configured TTL or starts in
        // the future; one that does was minted elsewhere (a leaked secret) and is refused.
        const { iat, exp } = payload as { iat: number; exp: number };
        const now = Math.floor(clock.now().getTime() / 1000);
        if (exp - iat > settings.ttlSeconds || iat > now + MAX_CLOCK_SKEW_SECONDS) throw invalidTokenError();
        const role = payload['role'];
        if (typeof role !== 'string' || !(USER_ROLES as readonly string[]).includes(role))
          throw invalidTokenError();
        return payload as unknown as AccessTokenClaims;
      } catch (error) {
        if (error instanceof errors.JOSEError || error instanceof TypeError) throw invalidTokenError();
        throw error;
      }
    },
  };
}
