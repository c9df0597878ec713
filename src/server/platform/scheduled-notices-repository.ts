import type { DbOrTransaction } from './db/database.js';

/** Inserts the notice unless the same one is there already; true when this call inserted it. */
export async function insertNoticeUnlessGiven(
  db: DbOrTransaction,
  notice: { subjectId: string; kind: string; occasion: string; at: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('scheduled_notices')
    .values({
      subject_id: notice.subjectId,
      kind: notice.kind,
      occasion: notice.occasion,
      created_at: notice.at,
    })
    .onConflict((conflict) => conflict.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}
