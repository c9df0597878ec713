import type { DbOrTransaction } from '../../platform/db/database.js';

/** Notes that the session proved itself again at `at` (a password, a code or a passkey). */
export async function recordStepUp(db: DbOrTransaction, sessionId: string, at: string): Promise<void> {
  await db
    .updateTable('refresh_token_families')
    .set({ stepped_up_at: at })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** When the session signed in and when it last stepped up, for the recency check of sensitive changes. */
export const findSessionProofTimes = (db: DbOrTransaction, sessionId: string) =>
  db
    .selectFrom('refresh_token_families')
    .select(['authenticated_at', 'stepped_up_at', 'created_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
