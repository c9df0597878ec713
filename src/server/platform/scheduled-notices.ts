import type { DbOrTransaction } from './db/database.js';
import { insertNoticeUnlessGiven } from './scheduled-notices-repository.js';

/**
 * Records that the scheduler gave a notice (a reminder, an expiry mail) about a subject on an
 * occasion; false when it already was, by this or another server. Call it in the transaction that
 * queues the mail, so the notice and the mail commit together and are never given twice.
 */
export async function takeNotice(
  db: DbOrTransaction,
  notice: { subjectId: string; kind: string; occasion: string; at: string },
): Promise<boolean> {
  return insertNoticeUnlessGiven(db, notice);
}
