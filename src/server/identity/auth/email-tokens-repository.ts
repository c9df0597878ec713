import type { ExpressionBuilder } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { Database, EmailTokenPurpose, EmailTokensTable } from '../../platform/db/tables.js';

/** The token of `tokenHash` for `purpose`, if it is unused and unexpired at `now`. */
const usableToken =
  (tokenHash: string, purpose: EmailTokenPurpose, now: string) =>
  (eb: ExpressionBuilder<Database, 'email_tokens'>) =>
    eb.and([
      eb('token_hash', '=', tokenHash),
      eb('purpose', '=', purpose),
      eb('used_at', 'is', null),
      eb('expires_at', '>', now),
    ]);

/** Spends every unused token of the user for `purpose`, so only the next one issued works. */
export async function spendUnusedEmailTokens(
  db: DbOrTransaction,
  userId: string,
  purpose: EmailTokenPurpose,
  at: string,
): Promise<void> {
  await db
    .updateTable('email_tokens')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

export async function insertEmailToken(
  db: DbOrTransaction,
  row: Omit<EmailTokensTable, 'used_at'>,
): Promise<void> {
  await db
    .insertInto('email_tokens')
    .values({ ...row, used_at: null })
    .execute();
}

/** Marks the token used if it is usable at `now`, in one statement; its user, or undefined. */
export async function spendEmailToken(
  db: DbOrTransaction,
  tokenHash: string,
  purpose: EmailTokenPurpose,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where(usableToken(tokenHash, purpose, now))
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** The user of a token unused and unexpired at `now`. */
export async function findUsableEmailTokenUser(
  db: DbOrTransaction,
  tokenHash: string,
  purpose: EmailTokenPurpose,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('email_tokens')
    .select('user_id')
    .where(usableToken(tokenHash, purpose, now))
    .executeTakeFirst();
  return row?.user_id;
}

/** The user of a token for `purpose`, whether or not it is still usable. */
export async function findEmailTokenUser(
  db: DbOrTransaction,
  tokenHash: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('email_tokens')
    .select('user_id')
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row?.user_id;
}

/** Deletes tokens used or expired before `cutoff`; returns how many. */
export async function deleteEmailTokensBefore(db: DbOrTransaction, cutoff: string): Promise<number> {
  const result = await db
    .deleteFrom('email_tokens')
    .where((eb) => eb.or([eb('used_at', '<', cutoff), eb('expires_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
