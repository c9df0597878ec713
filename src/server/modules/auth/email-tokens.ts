import { randomUUID } from 'node:crypto';
import { utc } from '../../../shared/dates.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../clock.js';
import { randomToken, sha256 } from '../../crypto.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { EmailTokenPurpose } from '../../db/tables.js';

/** Issues a single-use link token; earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(
  db: DbOrTransaction,
  clock: Clock,
  userId: string,
  purpose: EmailTokenPurpose,
  ttlSeconds: number,
): Promise<string> {
  const now = isoNow(clock);
  await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  const token = randomToken();
  await db
    .insertInto('email_tokens')
    .values({
      id: randomUUID(),
      user_id: userId,
      purpose,
      token_hash: sha256(token),
      created_at: now,
      expires_at: isoAfterSeconds(clock, ttlSeconds),
      used_at: null,
    })
    .execute();
  return token;
}

/** Marks the token used and returns its user, or `undefined` when unknown, used or expired. */
export async function consumeEmailToken(
  db: DbOrTransaction,
  clock: Clock,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  const now = isoNow(clock);
  const row = await db
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

/** The user of a token that is still usable, without spending it. */
export async function findUsableEmailToken(
  db: DbOrTransaction,
  clock: Clock,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('email_tokens')
    .select('user_id')
    .where('token_hash', '=', sha256(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', isoNow(clock))
    .executeTakeFirst();
  return row?.user_id;
}

// Used and expired links are kept a week, long enough to explain a "this link no longer works".
const RETENTION_DAYS = 7;

/** Deletes link tokens used or expired over a week ago; returns how many. */
export async function pruneEmailTokens(db: DbOrTransaction, clock: Clock): Promise<number> {
  const cutoff = utc(clock.now()).subtract(RETENTION_DAYS, 'day').toISOString();
  const result = await db
    .deleteFrom('email_tokens')
    .where((eb) => eb.or([eb('used_at', '<', cutoff), eb('expires_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
