import type { DbOrTransaction } from '../../platform/db/database.js';
import type { AuthChallengeKind, AuthChallengeRow } from '../../platform/db/tables.js';

export async function insertChallenge(
  db: DbOrTransaction,
  row: Omit<AuthChallengeRow, 'attempts' | 'used_at'>,
): Promise<void> {
  await db
    .insertInto('auth_challenges')
    .values({ ...row, used_at: null })
    .execute();
}

/** A live challenge of `kind` by the hash of its token (or by id when the client holds no token). */
export const findLiveChallenge = (
  db: DbOrTransaction,
  where: { kind: AuthChallengeKind | readonly AuthChallengeKind[]; tokenHash?: string; id?: string },
  now: string,
) => {
  const kinds: readonly AuthChallengeKind[] = typeof where.kind === 'string' ? [where.kind] : where.kind;
  let query = db
    .selectFrom('auth_challenges')
    .selectAll()
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  if (where.tokenHash !== undefined) query = query.where('token_hash', '=', where.tokenHash);
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  return query.executeTakeFirst();
};

/**
 * The kind of the challenge a token names, whether or not it is still live (until it is pruned):
 * what a refusal of a spent or expired one says depends on how that sign-in began.
 */
export async function findChallengeKind(
  db: DbOrTransaction,
  kinds: readonly AuthChallengeKind[],
  tokenHash: string,
): Promise<AuthChallengeKind | undefined> {
  const row = await db
    .selectFrom('auth_challenges')
    .select('kind')
    .where('kind', 'in', kinds)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row?.kind;
}

/** Marks the challenge used unless something else did first; true for the one caller that won. */
export async function claimChallenge(db: DbOrTransaction, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('auth_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts one wrong answer; answers how many the challenge has had. */
export async function countChallengeAttempt(db: DbOrTransaction, id: string): Promise<number> {
  await db
    .updateTable('auth_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
  const row = await db
    .selectFrom('auth_challenges')
    .select('attempts')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.attempts ?? 0;
}

/** Challenges that expired before `before`: nothing can use them any more. */
export async function deleteExpiredChallenges(db: DbOrTransaction, before: string): Promise<number> {
  const result = await db.deleteFrom('auth_challenges').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
