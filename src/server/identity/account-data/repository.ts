import type { DbOrTransaction } from '../../platform/db/database.js';
import type { DataExportRow, DataExportsTable } from '../../platform/db/tables.js';
import { type Insertable, sql, type Updateable } from 'kysely';

export async function insertDataExport(
  db: DbOrTransaction,
  row: Insertable<DataExportsTable>,
): Promise<void> {
  await db.insertInto('data_exports').values(row).execute();
}

/** The account's export still being made, if any (at most one: a unique index). */
export const findOpenDataExport = (db: DbOrTransaction, userId: string): Promise<DataExportRow | undefined> =>
  db
    .selectFrom('data_exports')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'in', ['queued', 'building'])
    .executeTakeFirst();

export const latestDataExport = (db: DbOrTransaction, userId: string): Promise<DataExportRow | undefined> =>
  db
    .selectFrom('data_exports')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export const findDataExportByTokenHash = (
  db: DbOrTransaction,
  tokenHash: string,
): Promise<DataExportRow | undefined> =>
  db.selectFrom('data_exports').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/**
 * The next export to build: a queued one, or one whose builder stopped (its claim ran out), oldest
 * first.
 */
export const nextDataExportToBuild = (db: DbOrTransaction, now: string): Promise<DataExportRow | undefined> =>
  db
    .selectFrom('data_exports')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('status', '=', 'queued'),
        eb.and([eb('status', '=', 'building'), eb('claimed_until', '<', now)]),
      ]),
    )
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();

/** Claims an export for one build: false when another server took it first. */
export async function claimDataExport(
  db: DbOrTransaction,
  row: Pick<DataExportRow, 'id' | 'status' | 'claimed_until'>,
  claimedUntil: string,
): Promise<boolean> {
  let update = db
    .updateTable('data_exports')
    .set((eb) => ({ status: 'building', claimed_until: claimedUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', row.id)
    .where('status', '=', row.status);
  update =
    row.claimed_until === null
      ? update.where('claimed_until', 'is', null)
      : update.where('claimed_until', '=', row.claimed_until);
  const result = await update.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Changes an export under the build's claim; false when the claim was lost (or the row is gone). */
export async function updateClaimedDataExport(
  db: DbOrTransaction,
  id: string,
  claimedUntil: string,
  change: Updateable<DataExportsTable>,
): Promise<boolean> {
  const result = await db
    .updateTable('data_exports')
    .set(change)
    .where('id', '=', id)
    .where('status', '=', 'building')
    .where('claimed_until', '=', claimedUntil)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Clears the archives whose links have expired (the rows stay as the history of what was asked). */
export async function clearExpiredArchives(db: DbOrTransaction, now: string): Promise<number> {
  const result = await db
    .updateTable('data_exports')
    .set({ archive: null })
    .where('status', '=', 'ready')
    .where('expires_at', '<', now)
    .where('archive', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setDeletionDue(db: DbOrTransaction, userId: string, dueAt: string | null, now: string) {
  const result = await db
    .updateTable('users')
    .set({ deletion_due_at: dueAt, updated_at: now })
    .where('id', '=', userId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Accounts whose deletion's grace period is over. */
export const accountsDueForErasure = (db: DbOrTransaction, now: string, limit: number) =>
  db
    .selectFrom('users')
    .select('id')
    .where('deletion_due_at', '<=', now)
    .where('erased_at', 'is', null)
    .orderBy('deletion_due_at', 'asc')
    .limit(limit)
    .execute();

/**
 * Erases what identity holds of a person: the account row keeps only its id, a pseudonymous
 * address no one can sign in with, and the dates; sessions, links, factors, tokens and exports go.
 */
export async function eraseAccountRows(
  db: DbOrTransaction,
  userId: string,
  now: string,
  unusablePasswordHash: string,
): Promise<void> {
  for (const table of [
    'refresh_token_families',
    'email_tokens',
    'passkeys',
    'totp_authenticators',
    'recovery_codes',
    'auth_challenges',
    'api_tokens',
    'sign_in_sources',
    'data_exports',
  ] as const)
    await db.deleteFrom(table).where('user_id', '=', userId).execute();
  // The sign-in counts are kept by address (`email|ip`, `email|*`), not by account.
  const account = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
  if (account) {
    const prefix = `${account.email}|`;
    await db
      .deleteFrom('login_throttles')
      .where((eb) => eb(eb.fn<string>('substr', ['key', sql.lit(1), sql.lit(prefix.length)]), '=', prefix))
      .execute();
  }
  await db
    .updateTable('users')
    .set((eb) => ({
      email: `erased-${userId}@erased.invalid`,
      password_hash: unusablePasswordHash,
      status: 'disabled',
      full_name: null,
      company: null,
      preferences: '{}',
      email_verified_at: null,
      deletion_due_at: null,
      erased_at: now,
      updated_at: now,
      session_version: eb('session_version', '+', 1),
    }))
    .where('id', '=', userId)
    .execute();
}
