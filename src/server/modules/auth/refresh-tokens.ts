import { randomUUID } from 'node:crypto';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../shared/constants.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../clock.js';
import { randomToken, sha256 } from '../../crypto.js';
import type { Db, DbOrTransaction } from '../../db/database.js';
import type { UserRow } from '../../db/tables.js';
import type { RequestMeta } from '../../request-meta.js';

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  expiresAt: string;
}

export type RotationResult =
  | { outcome: 'rotated'; userId: string; refresh: IssuedRefreshToken }
  | { outcome: 'invalid' }
  | { outcome: 'reused'; userId: string; familyId: string };

async function addToken(db: DbOrTransaction, clock: Clock, familyId: string): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('refresh_tokens')
    .values({
      id: randomUUID(),
      family_id: familyId,
      token_hash: sha256(token),
      created_at: isoNow(clock),
      used_at: null,
    })
    .execute();
  return token;
}

/** Starts a session: a new family whose absolute life no rotation extends. */
export async function startRefreshFamily(
  db: DbOrTransaction,
  clock: Clock,
  userId: string,
  meta: RequestMeta,
): Promise<IssuedRefreshToken> {
  const familyId = randomUUID();
  const expiresAt = isoAfterSeconds(clock, REFRESH_TOKEN_TTL_SECONDS);
  await db
    .insertInto('refresh_token_families')
    .values({
      id: familyId,
      user_id: userId,
      created_at: isoNow(clock),
      expires_at: expiresAt,
      revoked_at: null,
      revoked_reason: null,
      user_agent: meta.userAgent,
      ip: meta.ip,
    })
    .execute();
  return { token: await addToken(db, clock, familyId), familyId, expiresAt };
}

export async function revokeFamily(db: DbOrTransaction, clock: Clock, familyId: string, reason: string) {
  await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: isoNow(clock), revoked_reason: reason })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function revokeAllFamiliesOfUser(
  db: DbOrTransaction,
  clock: Clock,
  userId: string,
  reason: string,
) {
  await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: isoNow(clock), revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * The account behind an access token, only while the session the token came from is live (not
 * revoked, not past its absolute life). One primary-key join: a logout or a detected reuse
 * committed by any instance is seen by the next request on every instance.
 */
export async function findUserOfLiveSession(
  db: DbOrTransaction,
  clock: Clock,
  session: { userId: string; sessionId: string },
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('refresh_token_families as session', (join) =>
      join.onRef('session.user_id', '=', 'users.id').on('session.id', '=', session.sessionId),
    )
    .selectAll('users')
    .where('users.id', '=', session.userId)
    .where('session.revoked_at', 'is', null)
    .where('session.expires_at', '>', isoNow(clock))
    .executeTakeFirst();
}

export async function findFamilyOfToken(db: DbOrTransaction, token: string) {
  return db
    .selectFrom('refresh_tokens')
    .innerJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
    .select(['family.id as familyId', 'family.user_id as userId'])
    .where('refresh_tokens.token_hash', '=', sha256(token))
    .executeTakeFirst();
}

/**
 * Exchanges a refresh token for the next one of its family. A token is good once: presenting it
 * again (a thief or the owner racing one) revokes the family. The single winner among concurrent
 * presentations is decided by the conditional update, on SQLite and PostgreSQL alike.
 */
export async function rotateRefreshToken(db: Db, clock: Clock, token: string): Promise<RotationResult> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('refresh_tokens')
      .innerJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
      .select([
        'refresh_tokens.id as tokenId',
        'refresh_tokens.used_at as usedAt',
        'family.id as familyId',
        'family.user_id as userId',
        'family.expires_at as expiresAt',
      ])
      .where('refresh_tokens.token_hash', '=', sha256(token))
      .executeTakeFirst();
    if (!row) return { outcome: 'invalid' };
    // Takes the family's row lock and re-checks it in one statement. A concurrent revoke (a
    // password reset, a logout) either commits first and is seen here, or waits for this
    // rotation and then revokes what it issued; PostgreSQL re-reads the row after the wait.
    const live = await trx
      .updateTable('refresh_token_families')
      .set({ revoked_at: null })
      .where('id', '=', row.familyId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', isoNow(clock))
      .executeTakeFirst();
    if (live.numUpdatedRows === 0n) return { outcome: 'invalid' };

    const claimed = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: isoNow(clock) })
      .where('id', '=', row.tokenId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (row.usedAt !== null || claimed.numUpdatedRows === 0n) {
      await revokeFamily(trx, clock, row.familyId, 'reuse');
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
