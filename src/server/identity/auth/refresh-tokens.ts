import { randomUUID } from 'node:crypto';
import type { SessionEndReason } from '../../../shared/api/auth.js';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../shared/constants.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import {
  claimRefreshToken,
  findFamilyEnd,
  findTokenForRotation,
  insertRefreshFamily,
  insertRefreshToken,
  lockLiveFamily,
  revokeFamily,
} from './refresh-tokens-repository.js';
import { bindingHolds, type SessionBinding } from './session-binding.js';

/** How a sign-in proved who it is, as RFC 8176 names the methods. */
/** `fed`: through the organisation's identity provider (single sign-on). */
export type SignInMethod = 'pwd' | 'otp' | 'webauthn' | 'fed';

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  expiresAt: string;
}

export type RotationResult =
  | { outcome: 'rotated'; userId: string; refresh: IssuedRefreshToken }
  | { outcome: 'invalid' }
  /** A bound session's token presented without its browser's binding cookie: refused, not spent. */
  | { outcome: 'unbound' }
  /** The token belonged to a session that has ended; `reason` says why when it is known. */
  | { outcome: 'ended'; reason: SessionEndReason | undefined }
  | { outcome: 'reused'; userId: string; familyId: string };

/** The revocation reasons written by the services that end sessions, as the client is told them. */
const END_REASONS: Readonly<Record<string, SessionEndReason>> = {
  logout: 'signed_out',
  logout_everywhere: 'signed_out_everywhere',
  revoked_by_owner: 'signed_out_elsewhere',
  password_changed: 'password_changed',
  password_reset: 'password_reset',
  role_changed: 'role_changed',
  disabled: 'account_disabled',
  account_unavailable: 'account_disabled',
  reuse: 'session_reused',
};

/** Why the session `familyId` is no longer live at `now`. */
async function endOf(
  db: DbOrTransaction,
  familyId: string,
  now: string,
): Promise<SessionEndReason | undefined> {
  const family = await findFamilyEnd(db, familyId);
  if (!family) return undefined;
  if (family.revokedAt !== null) return family.revokedReason ? END_REASONS[family.revokedReason] : undefined;
  return family.expiresAt <= now ? 'session_expired' : undefined;
}

async function addToken(db: DbOrTransaction, clock: Clock, familyId: string): Promise<string> {
  const token = randomToken();
  await insertRefreshToken(db, {
    id: randomUUID(),
    family_id: familyId,
    token_hash: sha256(token),
    created_at: isoNow(clock),
  });
  return token;
}

/**
 * Starts a session: a new family whose absolute life no rotation extends, bound to `binding`'s
 * cookie when the client is the web (every rotation of the family stays bound to it).
 */
export async function startRefreshFamily(
  db: DbOrTransaction,
  clock: Clock,
  userId: string,
  meta: RequestMeta,
  methods: readonly SignInMethod[],
  binding: SessionBinding | null,
): Promise<IssuedRefreshToken> {
  const familyId = randomUUID();
  const expiresAt = isoAfterSeconds(clock, REFRESH_TOKEN_TTL_SECONDS);
  await insertRefreshFamily(db, {
    id: familyId,
    user_id: userId,
    created_at: isoNow(clock),
    expires_at: expiresAt,
    user_agent: meta.userAgent,
    ip: meta.ip,
    authenticated_at: isoNow(clock),
    methods: JSON.stringify(methods),
    binding_hash: binding?.hash ?? null,
  });
  return { token: await addToken(db, clock, familyId), familyId, expiresAt };
}

/**
 * Exchanges a refresh token for the next one of its family. A token is good once: presenting it
 * again (a thief or the owner racing one) revokes the family. The single winner among concurrent
 * presentations is decided by the conditional update, on SQLite and PostgreSQL alike.
 */
export async function rotateRefreshToken(
  db: Db,
  clock: Clock,
  token: string,
  presented: { client: string | null | undefined; secret: string | undefined },
): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    const row = await findTokenForRotation(trx, sha256(token));
    if (!row) return { outcome: 'invalid' };
    // Checked before the token is spent: a copied token tried elsewhere neither works nor ends
    // the session of the browser it was taken from.
    if (!bindingHolds(row.bindingHash, presented)) return { outcome: 'unbound' };
    // A concurrent revoke (a password reset, a logout) either commits first and is seen here, or
    // waits for this rotation and then revokes what it issued.
    if (!(await lockLiveFamily(trx, row.familyId, isoNow(clock))))
      return { outcome: 'ended', reason: await endOf(trx, row.familyId, isoNow(clock)) };
    const claimed = await claimRefreshToken(trx, row.tokenId, isoNow(clock));
    if (row.usedAt !== null || !claimed) {
      await revokeFamily(trx, row.familyId, isoNow(clock), 'reuse');
      return { outcome: 'reused', userId: row.userId, familyId: row.familyId };
    }
    const next = await addToken(trx, clock, row.familyId);
    return {
      outcome: 'rotated',
      userId: row.userId,
      refresh: { token: next, familyId: row.familyId, expiresAt: row.expiresAt },
    };
  });
}
