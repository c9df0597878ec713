import { type ExpressionBuilder, sql } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { Database } from '../../platform/db/tables.js';

/**
 * True for a row that no longer counts: its lock is over, or it has no lock and its window has
 * passed. Spent rows behave exactly like missing ones, which is what lets pruning delete them.
 */
function isSpent(eb: ExpressionBuilder<Database, 'login_throttles'>, now: string, windowStart: string) {
  return eb.or([
    eb.and([
      eb('login_throttles.locked_until', 'is not', null),
      eb('login_throttles.locked_until', '<=', now),
    ]),
    eb.and([
      eb('login_throttles.locked_until', 'is', null),
      eb('login_throttles.first_failure_at', '<=', windowStart),
    ]),
  ]);
}

/**
 * Adds one attempt to the row of `key` (starting afresh when the row is spent: see {@link isSpent})
 * and returns the row after it.
 */
export async function countAttempt(db: DbOrTransaction, key: string, nowIso: string, windowStart: string) {
  // A single statement: the row lock (PostgreSQL) or the single connection (SQLite) hands out
  // every number once, however many attempts arrive together. SET reads the row as it was.
  return db
    .insertInto('login_throttles')
    .values({ key, failures: 1, first_failure_at: nowIso, locked_until: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        const spent = isSpent(eb, nowIso, windowStart);
        return {
          failures: eb
            .case()
            .when(spent)
            .then(1)
            .else(eb('login_throttles.failures', '+', 1))
            .end(),
          first_failure_at: eb
            .case()
            .when(spent)
            .then(nowIso)
            .else(eb.ref('login_throttles.first_failure_at'))
            .end(),
          locked_until: eb
            .case()
            .when(spent)
            .then(sql<string | null>`null`)
            .else(eb.ref('login_throttles.locked_until'))
            .end(),
        };
      }),
    )
    .returning(['failures', 'first_failure_at', 'locked_until'])
    .executeTakeFirstOrThrow();
}

/** Takes one attempt back from the row of `key`. */
export async function giveBackAttempt(db: DbOrTransaction, key: string): Promise<void> {
  await db
    .updateTable('login_throttles')
    .set((eb) => ({ failures: eb('failures', '-', 1) }))
    .where('key', '=', key)
    .where('failures', '>', 0)
    .execute();
}

/** Whether the account started a session from this address since `since`. */
export async function hasSessionFromAddress(
  db: DbOrTransaction,
  userId: string,
  ip: string,
  since: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('refresh_token_families')
    .select('id')
    .where('user_id', '=', userId)
    .where('ip', '=', ip)
    .where('created_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteThrottle(db: DbOrTransaction, key: string): Promise<void> {
  await db.deleteFrom('login_throttles').where('key', '=', key).execute();
}

export async function lockThrottle(db: DbOrTransaction, key: string, until: string): Promise<void> {
  await db.updateTable('login_throttles').set({ locked_until: until }).where('key', '=', key).execute();
}

/** Deletes every row whose key starts with `prefix`. */
export async function deleteThrottlesWithPrefix(db: DbOrTransaction, prefix: string): Promise<void> {
  // SQLite has no default LIKE escape character, so one is named; as a bound parameter it reads
  // the same whatever PostgreSQL's standard_conforming_strings says about backslashes.
  const escape = '\\';
  const pattern = `${prefix.replace(/[\\%_]/g, (character) => escape + character)}%`;
  await db
    .deleteFrom('login_throttles')
    .where(sql<boolean>`key like ${pattern} escape ${escape}`)
    .execute();
}

/** Deletes spent rows; returns how many. */
export async function deleteSpentThrottles(
  db: DbOrTransaction,
  nowIso: string,
  windowStart: string,
): Promise<number> {
  const result = await db
    .deleteFrom('login_throttles')
    .where((eb) => isSpent(eb, nowIso, windowStart))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
