import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  Coupon,
  CouponPreview,
  createCouponRequestSchema,
  updateCouponRequestSchema,
} from '../../../shared/api/coupons.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { refuseDuplicate } from '../../platform/db/errors.js';
import type { CouponRow, PlanRow, UserRow } from '../../platform/db/tables.js';
import { conflict, HttpError, notFound } from '../../platform/http-error.js';
import { formatMoney } from '../../platform/mail/formatting.js';
import { planInCurrency } from '../plans/prices-repository.js';
import { findOfferedPlanByIdOrCode } from '../plans/repository.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { discountOf } from './discount.js';
import {
  countRedemption,
  findCoupon,
  findCouponByCode,
  hasRedeemed,
  insertCoupon,
  insertRedemption,
  listCoupons,
  updateCoupon,
} from './repository.js';

type CreateCoupon = z.output<typeof createCouponRequestSchema>;
type UpdateCoupon = z.output<typeof updateCouponRequestSchema>;

export const toCoupon = (row: CouponRow): Coupon => ({
  id: row.id,
  code: row.code,
  description: row.description,
  percent_off: row.percent_off,
  amount_off_minor: row.amount_off_minor === null ? null : Number(row.amount_off_minor),
  currency: row.currency,
  duration: row.duration,
  expires_at: row.expires_at,
  max_redemptions: row.max_redemptions,
  redeemed_count: Number(row.redeemed_count),
  archived: row.archived_at !== null,
  created_at: row.created_at,
});

const couponNotFound = () => notFound('coupon_not_found', 'No coupon has this code');
const usedUp = () => conflict('coupon_exhausted', 'This coupon has been used as often as it allows');

/** What redeeming gave: the coupon and the discount on this charge. */
export interface Redemption {
  coupon: CouponRow;
  discountMinor: number;
}

/** Coupons: what administrators make, what customers preview, and their redemption at checkout. */
export function createCouponsService({ db, clock }: { db: Db; clock: Clock }) {
  /** The coupon a customer may use now on a price, or the reason they may not. */
  async function usable(
    trx: DbOrTransaction,
    code: string,
    user: UserRow,
    price: { amountMinor: number; currency: string },
  ): Promise<Redemption> {
    const coupon = await findCouponByCode(trx, code);
    if (!coupon || coupon.archived_at !== null) throw couponNotFound();
    const now = clock.now().toISOString();
    if (coupon.expires_at !== null && coupon.expires_at <= now)
      throw conflict('coupon_expired', `The coupon ${coupon.code} has expired`);
    if (coupon.max_redemptions !== null && Number(coupon.redeemed_count) >= coupon.max_redemptions)
      throw usedUp();
    if (await hasRedeemed(trx, coupon.id, user.id))
      throw conflict('coupon_already_used', `You have already used the coupon ${coupon.code}`);
    const discountMinor = discountOf(coupon, price.amountMinor, price.currency);
    if (discountMinor === 0)
      throw conflict(
        'coupon_not_applicable',
        `The coupon ${coupon.code} takes ${formatMoney(Number(coupon.amount_off_minor ?? 0), coupon.currency ?? price.currency)} off, and this price is in ${price.currency}`,
      );
    return { coupon, discountMinor };
  }

  return {
    /** Whether the customer may use the coupon on the plan now, and what it takes off: without redeeming it. */
    check: (user: UserRow, code: string, plan: Pick<PlanRow, 'price_minor' | 'currency'>) =>
      usable(db, code, user, { amountMinor: Number(plan.price_minor), currency: plan.currency }),

    /** What the coupon takes off a plan's price, without redeeming it. */
    async preview(
      user: UserRow,
      body: { code: string; plan_id: string; currency?: string | undefined },
    ): Promise<CouponPreview> {
      const offered = await findOfferedPlanByIdOrCode(db, body.plan_id);
      if (!offered) throw notFound('plan_not_found', 'This plan is not available');
      // The price in the currency the buyer sees it in.
      const plan = await planInCurrency(db, offered, body.currency ?? null);
      if (!plan) throw conflict('currency_not_offered', `${offered.name} is not sold in ${body.currency}`);
      const price = { amountMinor: Number(plan.price_minor), currency: plan.currency };
      const { coupon, discountMinor } = await usable(db, body.code, user, price);
      return {
        code: coupon.code,
        description: coupon.description,
        duration: coupon.duration,
        amount_minor: price.amountMinor,
        discount_minor: discountMinor,
        amount_after_minor: price.amountMinor - discountMinor,
        currency: plan.currency,
      };
    },

    /**
     * Redeems the coupon for the customer on this price, in the caller's transaction (the one that
     * opens the order or subscription): counted only if it still allows one more, so of two
     * checkouts racing for the last redemption exactly one gets it, and each customer once.
     */
    async redeem(
      trx: DbOrTransaction,
      input: {
        code: string;
        user: UserRow;
        plan: Pick<PlanRow, 'price_minor' | 'currency'>;
        paymentId?: string;
        subscriptionId?: string;
      },
    ): Promise<Redemption> {
      const price = { amountMinor: Number(input.plan.price_minor), currency: input.plan.currency };
      const redemption = await usable(trx, input.code, input.user, price);
      const now = clock.now().toISOString();
      if (!(await countRedemption(trx, redemption.coupon.id, now))) throw usedUp();
      const recorded = await insertRedemption(trx, {
        id: randomUUID(),
        coupon_id: redemption.coupon.id,
        user_id: input.user.id,
        payment_id: input.paymentId ?? null,
        subscription_id: input.subscriptionId ?? null,
        discount_minor: redemption.discountMinor,
        created_at: now,
      });
      if (!recorded)
        throw conflict('coupon_already_used', `You have already used the coupon ${redemption.coupon.code}`);
      return redemption;
    },

    findCoupon: (id: string) => findCoupon(db, id),

    admin: {
      list: async (): Promise<Coupon[]> => (await listCoupons(db)).map(toCoupon),

      async create(actor: AdminActor, body: CreateCoupon): Promise<Coupon> {
        const now = clock.now().toISOString();
        if (body.expires_at !== undefined && new Date(body.expires_at).toISOString() <= now) {
          const message = 'expires_at must be in the future';
          throw new HttpError(
            400,
            'validation_error',
            message,
            {},
            { errors: [{ field: 'expires_at', message }] },
          );
        }
        const row = {
          id: randomUUID(),
          code: body.code,
          description: body.description ?? null,
          percent_off: body.percent_off ?? null,
          amount_off_minor: body.amount_off_minor ?? null,
          currency: body.amount_off_minor === undefined ? null : (body.currency ?? null),
          duration: body.duration,
          expires_at: body.expires_at === undefined ? null : new Date(body.expires_at).toISOString(),
          max_redemptions: body.max_redemptions ?? null,
          redeemed_count: 0,
          archived_at: null,
          created_at: now,
          updated_at: now,
        };
        await db.transaction().execute(async (trx) => {
          await refuseDuplicate(
            () => insertCoupon(trx, row),
            () => conflict('coupon_code_taken', `A coupon with the code ${body.code} already exists`),
          );
          await recordAdminAction(trx, clock, actor, {
            type: securityEventTypes.couponChanged,
            severity: 'info',
            userId: null,
            details: { coupon_id: row.id, code: row.code, action: 'created' },
          });
        });
        return toCoupon(row);
      },

      async update(actor: AdminActor, id: string, body: UpdateCoupon): Promise<Coupon> {
        const now = clock.now().toISOString();
        const updated = await db.transaction().execute(async (trx) => {
          const changed = await updateCoupon(trx, id, {
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.archived !== undefined ? { archived_at: body.archived ? now : null } : {}),
            ...(body.expires_at !== undefined
              ? { expires_at: body.expires_at === null ? null : new Date(body.expires_at).toISOString() }
              : {}),
            ...(body.max_redemptions !== undefined ? { max_redemptions: body.max_redemptions } : {}),
            updated_at: now,
          });
          if (!changed) throw notFound('coupon_not_found', 'Coupon not found');
          await recordAdminAction(trx, clock, actor, {
            type: securityEventTypes.couponChanged,
            severity: 'info',
            userId: null,
            details: { coupon_id: id, code: changed.code, action: 'updated', changes: Object.keys(body) },
          });
          return changed;
        });
        return toCoupon(updated);
      },
    },
  };
}

export type CouponsService = ReturnType<typeof createCouponsService>;
