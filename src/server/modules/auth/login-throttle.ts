import { sql } from 'kysely';
import { type Clock, isoNow } from '../../clock.js';
import { HttpError } from '../../http-error.js';
import type { DbOrTransaction } from '../../db/database.js';

/** The answer to a locked (account, address) pair, with how long to wait. */
export function lockedOutError(until: Date, now: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    'account_locked',
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset your password.`,
    { 'retry-after': String(seconds) },
  );
}

export interface LockoutPolicy {
  threshold: number;
  minutes: number;
}

// Failures are counted per (account, client address): a stranger hammering an account locks out
// only their own address, never the owner signing in from elsewhere, and every lock expires.
const throttleKey = (email: string, ip: string) => `${email}|${ip}`;

/** The moment the pair may try again, or `undefined` when it is not locked. */
export async function lockedUntil(
  db: DbOrTransaction,
  clock: Clock,
  email: string,
  ip: string,
): Promise<Date | undefined> {
  const row = await db
    .selectFrom('login_throttles')
    .select('locked_until')
    .where('key', '=', throttleKey(email, ip))
    .executeTakeFirst();
  return row?.locked_until && row.locked_until > isoNow(clock) ? new Date(row.locked_until) : undefined;
}

/** Counts one failure atomically; returns the lock's end when this failure started a lockout. */
export async function recordLoginFailure(
  db: DbOrTransaction,
  clock: Clock,
  policy: LockoutPolicy,
  email: string,
  ip: string,
): Promise<Date | undefined> {
  const key = throttleKey(email, ip);
  const now = clock.now();
  const windowStart = new Date(now.getTime() - policy.minutes * 60_000).toISOString();
  // A count whose window has passed (and whose lock, if any, is over) starts again from zero.
  await db
    .deleteFrom('login_throttles')
    .where('key', '=', key)
    .where('first_failure_at', '<', windowStart)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now.toISOString())]))
    .execute();
  const counted = await db
    .insertInto('login_throttles')
    .values({ key, failures: 1, first_failure_at: now.toISOString(), locked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({ failures: eb('login_throttles.failures', '+', 1) })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  if (counted.failures < policy.threshold) return undefined;
  const until = new Date(now.getTime() + policy.minutes * 60_000);
  await db
    .updateTable('login_throttles')
    .set({ failures: 0, first_failure_at: now.toISOString(), locked_until: until.toISOString() })
    .where('key', '=', key)
    .execute();
  return until;
}

export async function clearLoginFailures(db: DbOrTransaction, email: string, ip: string): Promise<void> {
  await db.deleteFrom('login_throttles').where('key', '=', throttleKey(email, ip)).execute();
}

/** Lifts every lock on the account, e.g. after its owner proved control of the mailbox. */
export async function clearAllLoginFailures(db: DbOrTransaction, email: string): Promise<void> {
  // SQLite has no default LIKE escape character, so it is named for both dialects.
  const pattern = `${email.replace(/[\\%_]/g, '\\$&')}|%`;
  await db
    .deleteFrom('login_throttles')
    .where(sql<boolean>`key like ${pattern} escape '\\'`)
    .execute();
}
