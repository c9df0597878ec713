import type { DbOrTransaction } from '../../platform/db/database.js';
import type { CounterKey } from './ingest-repository.js';

/** Caps of one member keyed by feature id. */
export type MemberCaps = Map<string, number>;

/** The caps an organisation set on one member, by feature. */
export async function findMemberCaps(
  db: DbOrTransaction,
  organisationId: string,
  userId: string,
): Promise<MemberCaps> {
  const rows = await db
    .selectFrom('usage_member_caps')
    .select(['feature_id', 'cap'])
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', userId)
    .execute();
  return new Map(rows.map((row) => [row.feature_id, Number(row.cap)]));
}

/** Every cap of an organisation's members: `${userId}|${featureId}` → cap. */
export async function findOrganisationCaps(
  db: DbOrTransaction,
  organisationId: string,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('usage_member_caps')
    .select(['user_id', 'feature_id', 'cap'])
    .where('organisation_id', '=', organisationId)
    .execute();
  return new Map(rows.map((row) => [`${row.user_id}|${row.feature_id}`, Number(row.cap)]));
}

/** Sets (a number) or clears (null) a member's cap of a feature. */
export async function saveMemberCap(
  db: DbOrTransaction,
  row: {
    organisationId: string;
    userId: string;
    featureId: string;
    cap: number | null;
    setBy: string;
    at: string;
  },
): Promise<void> {
  const { cap } = row;
  if (cap === null) {
    await db
      .deleteFrom('usage_member_caps')
      .where('organisation_id', '=', row.organisationId)
      .where('user_id', '=', row.userId)
      .where('feature_id', '=', row.featureId)
      .execute();
    return;
  }
  await db
    .insertInto('usage_member_caps')
    .values({
      organisation_id: row.organisationId,
      user_id: row.userId,
      feature_id: row.featureId,
      cap,
      set_by: row.setBy,
      updated_at: row.at,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['organisation_id', 'user_id', 'feature_id'])
        .doUpdateSet({ cap, set_by: row.setBy, updated_at: row.at }),
    )
    .execute();
}

/**
 * Takes a member's counter's row lock and answers its total, creating it at zero. It is taken
 * after the license's counter of the same feature and period (which every batch locks first, in
 * one order), so it never waits on a batch that waits on it.
 */
export async function lockMemberCounter(
  db: DbOrTransaction,
  licenseId: string,
  userId: string,
  key: CounterKey,
): Promise<number> {
  const where = {
    license_id: licenseId,
    user_id: userId,
    feature_id: key.featureId,
    period_start: key.periodStart,
  };
  await db
    .insertInto('usage_member_counters')
    .values({ ...where, total: 0 })
    .onConflict((conflict) =>
      conflict.columns(['license_id', 'user_id', 'feature_id', 'period_start']).doNothing(),
    )
    .execute();
  const row = await db
    .updateTable('usage_member_counters')
    .set((eb) => ({ total: eb.ref('total') }))
    .where('license_id', '=', licenseId)
    .where('user_id', '=', userId)
    .where('feature_id', '=', key.featureId)
    .where('period_start', '=', key.periodStart)
    .returning('total')
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Adds to a member's locked counter. */
export async function addToMemberCounter(
  db: DbOrTransaction,
  licenseId: string,
  userId: string,
  key: CounterKey,
  amount: number,
): Promise<void> {
  await db
    .updateTable('usage_member_counters')
    .set((eb) => ({ total: eb('total', '+', amount) }))
    .where('license_id', '=', licenseId)
    .where('user_id', '=', userId)
    .where('feature_id', '=', key.featureId)
    .where('period_start', '=', key.periodStart)
    .execute();
}

/** The members' totals of a license in the given periods: `${userId}|${featureId}|${periodStart}` → total. */
export async function memberTotals(
  db: DbOrTransaction,
  licenseId: string,
  periodStarts: string[],
  userId?: string,
): Promise<Map<string, number>> {
  if (periodStarts.length === 0) return new Map();
  let query = db
    .selectFrom('usage_member_counters')
    .select(['user_id', 'feature_id', 'period_start', 'total'])
    .where('license_id', '=', licenseId)
    .where('period_start', 'in', periodStarts);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const rows = await query.execute();
  return new Map(
    rows.map((row) => [`${row.user_id}|${row.feature_id}|${row.period_start}`, Number(row.total)]),
  );
}
