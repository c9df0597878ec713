import type { DbOrTransaction } from '../../platform/db/database.js';

export const findTotpAuthenticator = (db: DbOrTransaction, userId: string) =>
  db.selectFrom('totp_authenticators').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** Starts (or restarts) an enrolment: an unconfirmed authenticator with a new secret. */
export async function savePendingTotp(
  db: DbOrTransaction,
  row: { userId: string; secretCiphertext: string; now: string },
): Promise<void> {
  const values = {
    secret_ciphertext: row.secretCiphertext,
    confirmed_at: null,
    last_used_step: null,
    created_at: row.now,
  };
  await db
    .insertInto('totp_authenticators')
    .values({ user_id: row.userId, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .execute();
}

/**
 * Accepts a code of time step `step` for the authenticator: one conditional update, so a step at
 * or before the last accepted one (a replay), or a code used by a concurrent request, loses.
 * `confirm` also marks a pending enrolment confirmed (and only a pending one).
 */
export async function claimTotpStep(
  db: DbOrTransaction,
  userId: string,
  step: number,
  options: { confirmAt?: string },
): Promise<boolean> {
  let query = db
    .updateTable('totp_authenticators')
    .set(
      options.confirmAt
        ? { last_used_step: step, confirmed_at: options.confirmAt }
        : { last_used_step: step },
    )
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]));
  query = options.confirmAt
    ? query.where('confirmed_at', 'is', null)
    : query.where('confirmed_at', 'is not', null);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTotpAuthenticator(db: DbOrTransaction, userId: string): Promise<void> {
  await db.deleteFrom('totp_authenticators').where('user_id', '=', userId).execute();
}

export const countPasskeys = async (db: DbOrTransaction, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
};
