import type { Updateable } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { CouponRow, CouponRedemptionsTable, CouponsTable } from '../../platform/db/tables.js';

export const findCouponByCode = (db: DbOrTransaction, code: string): Promise<CouponRow | undefined> =>
  db.selectFrom('coupons').selectAll().where('code', '=', code).executeTakeFirst();

export const findCoupon = (db: DbOrTransaction, id: string): Promise<CouponRow | undefined> =>
  db.selectFrom('coupons').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * A subscription's coupon (`couponId`, null for none): `known` when the caller already holds that
 * row (null: it knows there is none), else read.
 */
export async function couponOfSubscription(
  db: DbOrTransaction,
  couponId: string | null,
  known?: CouponRow | null,
): Promise<CouponRow | undefined> {
  if (known !== undefined && (known?.id ?? null) === couponId) return known ?? undefined;
  return couponId ? findCoupon(db, couponId) : undefined;
}

export const listCoupons = (db: DbOrTransaction): Promise<CouponRow[]> =>
  db.selectFrom('coupons').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();

export async function insertCoupon(db: DbOrTransaction, row: CouponsTable): Promise<void> {
  await db.insertInto('coupons').values(row).execute();
}

export const updateCoupon = (
  db: DbOrTransaction,
  id: string,
  changes: Updateable<CouponsTable>,
): Promise<CouponRow | undefined> =>
  db.updateTable('coupons').set(changes).where('id', '=', id).returningAll().executeTakeFirst();

/**
 * Counts one more redemption if the coupon still allows it at `now` (not archived, not expired,
 * under its limit), in one conditional update: of two redemptions racing for the last one, exactly
 * one counts. False when it does not.
 */
export async function countRedemption(db: DbOrTransaction, couponId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('coupons')
    .set((eb) => ({ redeemed_count: eb('redeemed_count', '+', 1), updated_at: now }))
    .where('id', '=', couponId)
    .where('archived_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) =>
      eb.or([eb('max_redemptions', 'is', null), eb('redeemed_count', '<', eb.ref('max_redemptions'))]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Records the redemption; false when this customer already redeemed the coupon. */
export async function insertRedemption(db: DbOrTransaction, row: CouponRedemptionsTable): Promise<boolean> {
  const result = await db
    .insertInto('coupon_redemptions')
    .values(row)
    .onConflict((conflict) => conflict.columns(['coupon_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export const hasRedeemed = async (db: DbOrTransaction, couponId: string, userId: string): Promise<boolean> =>
  (await db
    .selectFrom('coupon_redemptions')
    .select('id')
    .where('coupon_id', '=', couponId)
    .where('user_id', '=', userId)
    .executeTakeFirst()) !== undefined;
