import { sql } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { FloatingMemberKeysTable, FloatingSeatsTable } from '../../platform/db/tables-floating.js';

export type FloatingSeatRow = FloatingSeatsTable;

/** A floating plan's terms, as its license reads them. */
export interface FloatingTerms {
  seats: number;
  leaseMinutes: number;
  maxBorrowDays: number;
}

/** The floating terms of the license's plan; undefined for a node-locked plan. */
export async function floatingTermsOfPlan(
  db: DbOrTransaction,
  planId: string,
): Promise<FloatingTerms | undefined> {
  const row = await db
    .selectFrom('plans')
    .select(['floating_seats', 'floating_lease_minutes', 'floating_borrow_days'])
    .where('id', '=', planId)
    .executeTakeFirst();
  if (!row || row.floating_seats === null) return undefined;
  return {
    seats: row.floating_seats,
    leaseMinutes: row.floating_lease_minutes ?? 15,
    maxBorrowDays: row.floating_borrow_days ?? 0,
  };
}

/**
 * The floating terms of a license: its plan's, with an organisation's pool being the seats it
 * bought (the license's `seats`, which a seat purchase changes as it does named seats) in place
 * of the plan's count, so an organisation buys floating seats as it buys named ones.
 */
export async function floatingTermsOf(
  db: DbOrTransaction,
  license: { plan_id: string; organisation_id: string | null; seats: number | null },
): Promise<FloatingTerms | undefined> {
  const terms = await floatingTermsOfPlan(db, license.plan_id);
  if (!terms || license.organisation_id === null || license.seats === null) return terms;
  return { ...terms, seats: license.seats };
}

/** Every seat row of the license, lapsed ones included, earliest end first. */
export const seatRowsOfLicense = (db: DbOrTransaction, licenseId: string): Promise<FloatingSeatRow[]> =>
  db
    .selectFrom('floating_seats')
    .selectAll()
    .where('license_id', '=', licenseId)
    .orderBy('holds_until')
    .orderBy('id')
    .execute();

export async function deleteSeatRows(db: DbOrTransaction, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db.deleteFrom('floating_seats').where('id', 'in', ids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertSeatRow(db: DbOrTransaction, row: FloatingSeatRow): Promise<void> {
  await db.insertInto('floating_seats').values(row).execute();
}

export async function renewSeatRow(
  db: DbOrTransaction,
  id: string,
  changes: Pick<FloatingSeatRow, 'heartbeat_at' | 'holds_until' | 'borrowed_until' | 'device_name'>,
): Promise<void> {
  await db.updateTable('floating_seats').set(changes).where('id', '=', id).execute();
}

/** Raises the day's peak to `inUse` if it is higher (a checkout's count, under the license's lock). */
export async function raisePeak(db: DbOrTransaction, licenseId: string, day: string, inUse: number) {
  await db
    .insertInto('floating_peaks')
    .values({ license_id: licenseId, day, peak: inUse })
    .onConflict((conflict) =>
      conflict.columns(['license_id', 'day']).doUpdateSet({
        peak: sql<number>`case when excluded.peak > floating_peaks.peak then excluded.peak else floating_peaks.peak end`,
      }),
    )
    .execute();
}

export const peaksSince = (db: DbOrTransaction, licenseId: string, fromDay: string) =>
  db
    .selectFrom('floating_peaks')
    .select(['day', 'peak'])
    .where('license_id', '=', licenseId)
    .where('day', '>=', fromDay)
    .orderBy('day')
    .execute();

/** Seats that lapsed before `now`, of any license, oldest first: maintenance's batch. */
export const lapsedSeatRows = (db: DbOrTransaction, now: string, limit: number) =>
  db
    .selectFrom('floating_seats')
    .selectAll()
    .where('holds_until', '<=', now)
    .orderBy('holds_until')
    .limit(limit)
    .execute();

/** The seat if it is still there and lapsed at `now` (maintenance's check under the license's lock). */
export const findLapsedSeat = (db: DbOrTransaction, id: string, now: string) =>
  db
    .selectFrom('floating_seats')
    .selectAll()
    .where('id', '=', id)
    .where('holds_until', '<=', now)
    .executeTakeFirst();

export type FloatingMemberKeyRow = FloatingMemberKeysTable;

/** Keeps the hash of a member machine's fresh key in place of any it had for that machine. */
export async function replaceMemberKey(db: DbOrTransaction, row: FloatingMemberKeyRow): Promise<void> {
  await db
    .deleteFrom('floating_member_keys')
    .where('license_id', '=', row.license_id)
    .where('user_id', '=', row.user_id)
    .where('hardware_id', '=', row.hardware_id)
    .execute();
  await db.insertInto('floating_member_keys').values(row).execute();
}

export const findMemberKey = (db: DbOrTransaction, keyHash: string) =>
  db.selectFrom('floating_member_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();

/** Frees the seats a member's machines hold on the license (the member left or was removed). */
export async function deleteMemberSeats(
  db: DbOrTransaction,
  licenseId: string,
  userId: string,
): Promise<FloatingSeatRow[]> {
  const rows = await db
    .selectFrom('floating_seats')
    .selectAll()
    .where('license_id', '=', licenseId)
    .where('held_by', '=', userId)
    .execute();
  await deleteSeatRows(
    db,
    rows.map((row) => row.id),
  );
  return rows;
}

/** The names members' seats show: each user's full name, else their e-mail address. */
export async function memberNames(
  db: DbOrTransaction,
  userIds: string[],
): Promise<Map<string, { user_id: string; name: string }>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'full_name', 'email'])
    .where('id', 'in', userIds)
    .execute();
  return new Map(rows.map((row) => [row.id, { user_id: row.id, name: row.full_name?.trim() || row.email }]));
}
