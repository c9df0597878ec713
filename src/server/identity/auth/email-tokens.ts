import { randomUUID } from 'node:crypto';
import { utc } from '../../../shared/dates.js';
import { type Clock, isoAfterSeconds, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { EmailTokenPurpose } from '../../platform/db/tables.js';
import {
  deleteEmailTokensBefore,
  findEmailTokenUser,
  findUsableEmailTokenUser,
  insertEmailToken,
  spendEmailToken,
  spendUnusedEmailTokens,
} from './email-tokens-repository.js';

/** Issues a single-use link token; earlier unused tokens of the same purpose stop working. */
export async function issueEmailToken(
  db: DbOrTransaction,
  clock: Clock,
  userId: string,
  purpose: EmailTokenPurpose,
  ttlSeconds: number,
): Promise<string> {
  const now = isoNow(clock);
  await spendUnusedEmailTokens(db, userId, purpose, now);
  const token = randomToken();
  await insertEmailToken(db, {
    id: randomUUID(),
    user_id: userId,
    purpose,
    token_hash: sha256(token),
    created_at: now,
    expires_at: isoAfterSeconds(clock, ttlSeconds),
  });
  return token;
}

/** Marks the token used and returns its user, or `undefined` when unknown, used or expired. */
export async function consumeEmailToken(
  db: DbOrTransaction,
  clock: Clock,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  return spendEmailToken(db, sha256(token), purpose, isoNow(clock));
}

/** The user of a token that is still usable, without spending it. */
export async function findUsableEmailToken(
  db: DbOrTransaction,
  clock: Clock,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  return findUsableEmailTokenUser(db, sha256(token), purpose, isoNow(clock));
}

/** The user a token was issued to, used or expired alike (to explain a link that no longer works). */
export async function findEmailTokenOwner(
  db: DbOrTransaction,
  token: string,
  purpose: EmailTokenPurpose,
): Promise<string | undefined> {
  return findEmailTokenUser(db, sha256(token), purpose);
}

// Used and expired links are kept a week, long enough to explain a "this link no longer works".
const RETENTION_DAYS = 7;

/** Deletes link tokens used or expired over a week ago; returns how many. */
export async function pruneEmailTokens(db: DbOrTransaction, clock: Clock): Promise<number> {
  const cutoff = utc(clock.now()).subtract(RETENTION_DAYS, 'day').toISOString();
  return deleteEmailTokensBefore(db, cutoff);
}
