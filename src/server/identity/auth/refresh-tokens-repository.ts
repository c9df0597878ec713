import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';

export async function insertRefreshToken(
  db: DbOrTransaction,
  row: { id: string; family_id: string; token_hash: string; created_at: string },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({ ...row, used_at: null })
    .execute();
}

/** A session: the family of refresh tokens issued from one sign-in. */
export async function insertRefreshFamily(
  db: DbOrTransaction,
  row: {
    id: string;
    user_id: string;
    created_at: string;
    expires_at: string;
    user_agent: string | null;
    ip: string;
    authenticated_at: string;
    methods: string;
    binding_hash: string | null;
  },
): Promise<void> {
  await db
    .insertInto('refresh_token_families')
    .values({ ...row, revoked_at: null, revoked_reason: null, stepped_up_at: null })
    .execute();
}

/** Ends one session, unless it already ended. */
export async function revokeFamily(db: DbOrTransaction, familyId: string, at: string, reason: string) {
  await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every live session of the user. */
export async function revokeAllFamiliesOfUser(
  db: DbOrTransaction,
  userId: string,
  at: string,
  reason: string,
) {
  await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * The account behind an access token, only while the session the token came from is live (not
 * revoked, not past its absolute life at `now`). One primary-key join: a logout or a detected
 * reuse committed by any instance is seen by the next request on every instance.
 */
export async function findUserOfLiveSession(
  db: DbOrTransaction,
  session: { userId: string; sessionId: string },
  now: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('refresh_token_families as session', (join) =>
      join.onRef('session.user_id', '=', 'users.id').on('session.id', '=', session.sessionId),
    )
    .selectAll('users')
    .where('users.id', '=', session.userId)
    .where('session.revoked_at', 'is', null)
    .where('session.expires_at', '>', now)
    .executeTakeFirst();
}

/** The session and account of a refresh token, by the token's hash. */
export const findFamilyOfToken = (db: DbOrTransaction, tokenHash: string) =>
  db
    .selectFrom('refresh_tokens')
    .innerJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
    .select(['family.id as familyId', 'family.user_id as userId'])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** A refresh token with its session, as rotation needs them. */
export const findTokenForRotation = (db: DbOrTransaction, tokenHash: string) =>
  db
    .selectFrom('refresh_tokens')
    .innerJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
    .select([
      'refresh_tokens.id as tokenId',
      'refresh_tokens.used_at as usedAt',
      'family.id as familyId',
      'family.user_id as userId',
      'family.expires_at as expiresAt',
      'family.binding_hash as bindingHash',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** How a session ended: its revocation reason and time, and its absolute end. */
export const findFamilyEnd = (db: DbOrTransaction, familyId: string) =>
  db
    .selectFrom('refresh_token_families')
    .select(['revoked_at as revokedAt', 'revoked_reason as revokedReason', 'expires_at as expiresAt'])
    .where('id', '=', familyId)
    .executeTakeFirst();

/**
 * Takes the session's row lock and re-checks that it is live at `now`, in one statement: true
 * when it is. A concurrent revoke either commits first and is seen here, or waits for this
 * transaction; PostgreSQL re-reads the row after the wait.
 */
export async function lockLiveFamily(db: DbOrTransaction, familyId: string, now: string): Promise<boolean> {
  const live = await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: null })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return live.numUpdatedRows > 0n;
}

/** Marks the token used unless it already is; true for the one caller that did. */
export async function claimRefreshToken(db: DbOrTransaction, tokenId: string, at: string): Promise<boolean> {
  const claimed = await db
    .updateTable('refresh_tokens')
    .set({ used_at: at })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return claimed.numUpdatedRows > 0n;
}

/** A live session of an account as its owner lists it. */
export interface LiveSessionRow {
  id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  authenticated_at: string | null;
  expires_at: string;
  /** When its newest refresh token was issued: the last time the session was renewed. */
  last_refreshed_at: string | null;
}

/** The account's sessions that are neither revoked nor past their life at `now`, newest activity first. */
export function listLiveSessionsOfUser(
  db: DbOrTransaction,
  userId: string,
  now: string,
): Promise<LiveSessionRow[]> {
  return db
    .selectFrom('refresh_token_families as session')
    .select([
      'session.id',
      'session.user_agent',
      'session.ip',
      'session.created_at',
      'session.authenticated_at',
      'session.expires_at',
      (eb) =>
        eb
          .selectFrom('refresh_tokens')
          .select((inner) => inner.fn.max('refresh_tokens.created_at').as('newest'))
          .whereRef('refresh_tokens.family_id', '=', 'session.id')
          .as('last_refreshed_at'),
    ])
    .where('session.user_id', '=', userId)
    .where('session.revoked_at', 'is', null)
    .where('session.expires_at', '>', now)
    .orderBy('session.created_at', 'desc')
    .orderBy('session.id')
    .execute();
}

/** Ends one live session of the user; false when the user has no such live session. */
export async function revokeSessionOfUser(
  db: DbOrTransaction,
  userId: string,
  sessionId: string,
  at: string,
  reason: string,
): Promise<boolean> {
  const result = await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Ends every live session of the user but `keepId`; answers how many ended. */
export async function revokeOtherSessionsOfUser(
  db: DbOrTransaction,
  userId: string,
  keepId: string,
  at: string,
  reason: string,
): Promise<number> {
  const result = await db
    .updateTable('refresh_token_families')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('id', '!=', keepId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Deletes the sessions that ended before `before` (signed out or revoked then, or past their
 * absolute life then), with their refresh tokens; answers how many sessions.
 */
export async function deleteSessionsEndedBefore(db: DbOrTransaction, before: string): Promise<number> {
  const ended = db
    .selectFrom('refresh_token_families')
    .select('id')
    .where((eb) => eb.or([eb('revoked_at', '<', before), eb('expires_at', '<', before)]));
  // Tokens first: SQLite's foreign keys cascade, but deleting them outright needs no cascade.
  await db.deleteFrom('refresh_tokens').where('family_id', 'in', ended).execute();
  const result = await db
    .deleteFrom('refresh_token_families')
    .where((eb) => eb.or([eb('revoked_at', '<', before), eb('expires_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
