import { sql } from 'kysely';
import type { DbOrTransaction } from '../platform/db/database.js';

/** Revenue per currency (and period, when grouped by one): gross paid, refunded of it, and net. */
export interface RevenueRow {
  period: string;
  currency: string;
  amount: number | string | null;
  refunded: number | string | null;
  payments: number | string;
}

/**
 * Payments that charged something (a plan change whose credit covered it, paid at ₹0, is no
 * payment), each with what was refunded of it so far (processed refunds only).
 */
const chargedPayments = (db: DbOrTransaction) =>
  db
    .selectFrom('payments')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('refunds')
          .select((inner) => ['payment_id', inner.fn.sum<number | string>('amount_minor').as('refunded')])
          .where('status', '=', 'processed')
          .groupBy('payment_id')
          .as('refunded_of'),
      (join) => join.onRef('refunded_of.payment_id', '=', 'payments.id'),
    )
    .where('payments.status', '=', 'paid')
    .where('payments.amount_minor', '>', 0);

/**
 * Accounts by status and role, and those created since `recentSince`. Enabled accounts count as
 * active once their e-mail address is confirmed, as unconfirmed until then.
 */
export const countUsers = (db: DbOrTransaction, recentSince: string) =>
  db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn
        .countAll<number | string>()
        .filterWhere((inner) =>
          inner.and([inner('status', '=', 'active'), inner('email_verified_at', 'is not', null)]),
        )
        .as('active'),
      eb.fn
        .countAll<number | string>()
        .filterWhere((inner) =>
          inner.and([inner('status', '=', 'active'), inner('email_verified_at', 'is', null)]),
        )
        .as('unconfirmed'),
      eb.fn.countAll<number | string>().filterWhere('status', '=', 'disabled').as('disabled'),
      eb.fn.countAll<number | string>().filterWhere('role', '=', 'admin').as('admins'),
      eb.fn.countAll<number | string>().filterWhere('created_at', '>=', recentSince).as('recent'),
    ])
    .executeTakeFirstOrThrow();

/**
 * Licenses by the status people see at `nowIso` (an active row past its expiry counts as expired),
 * and the perpetual ones not revoked by whether their update window is open.
 */
export const countLicenses = (db: DbOrTransaction, nowIso: string) =>
  db
    .selectFrom('licenses')
    .select((eb) => {
      const lapsed = eb.and([eb('status', '=', 'active'), eb('expires_at', '<=', nowIso)]);
      const expired = eb.and([lapsed, eb('trial_ends_at', 'is', null)]);
      return [
        eb.fn.countAll<number | string>().as('total'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) =>
            inner.and([
              inner('status', '=', 'active'),
              inner.or([inner('expires_at', 'is', null), inner('expires_at', '>', nowIso)]),
            ]),
          )
          .as('active'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'suspended').as('suspended'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'revoked').as('revoked'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'paused').as('paused'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) => inner.or([inner('status', '=', 'expired'), expired]))
          .as('expired'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) => inner.and([lapsed, inner('trial_ends_at', 'is not', null)]))
          .as('trial_expired'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) =>
            inner.and([inner('status', '!=', 'revoked'), inner('updates_until', '>', nowIso)]),
          )
          .as('window_open'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) =>
            inner.and([inner('status', '!=', 'revoked'), inner('updates_until', '<=', nowIso)]),
          )
          .as('window_lapsed'),
      ];
    })
    .executeTakeFirstOrThrow();

/** Machines holding a seat, and machines activated since `recentSince`. */
export const countActivations = (db: DbOrTransaction, recentSince: string) =>
  db
    .selectFrom('activations')
    .select((eb) => [
      eb.fn.countAll<number | string>().filterWhere('deactivated_at', 'is', null).as('active'),
      eb.fn.countAll<number | string>().filterWhere('activated_at', '>=', recentSince).as('recent'),
    ])
    .executeTakeFirstOrThrow();

/** Everything ever charged, per currency, with what was refunded of it. */
export const revenueTotals = (db: DbOrTransaction): Promise<Omit<RevenueRow, 'period'>[]> =>
  chargedPayments(db)
    .select((eb) => [
      'payments.currency as currency',
      eb.fn.sum<number | string | null>('payments.amount_minor').as('amount'),
      eb.fn.sum<number | string | null>('refunded_of.refunded').as('refunded'),
      eb.fn.countAll<number | string>().as('payments'),
    ])
    .groupBy('payments.currency')
    .execute();

/**
 * Revenue per currency and the period it was paid in, `length` characters of `paid_at` naming the
 * period; a payment's refunds count against the period it was paid in.
 */
export function revenueSince(db: DbOrTransaction, since: string, length: 7 | 10): Promise<RevenueRow[]> {
  const period = sql<string>`substr(${sql.ref('payments.paid_at')}, 1, ${sql.lit(length)})`;
  return chargedPayments(db)
    .select((eb) => [
      period.as('period'),
      'payments.currency as currency',
      eb.fn.sum<number | string | null>('payments.amount_minor').as('amount'),
      eb.fn.sum<number | string | null>('refunded_of.refunded').as('refunded'),
      eb.fn.countAll<number | string>().as('payments'),
    ])
    .where('payments.paid_at', '>=', since)
    .groupBy([period, 'payments.currency'])
    .execute();
}

/**
 * The subscriptions still billed (active and past due), counted per plan and coupon with the seats
 * they pay for (1 each unless seat-based): few groups however many subscriptions, from which MRR is worked out in integers with each coupon's discount.
 */
export const billedSubscriptionGroups = (db: DbOrTransaction) =>
  db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    // A subscription bought in another currency than its plan's own is charged that price (0054).
    .leftJoin('plan_prices', (join) =>
      join
        .onRef('plan_prices.plan_id', '=', 'subscriptions.plan_id')
        .onRef('plan_prices.currency', '=', 'subscriptions.currency'),
    )
    .leftJoin('coupons', 'coupons.id', 'subscriptions.coupon_id')
    .select((eb) => [
      eb.fn.coalesce('subscriptions.currency', 'plans.currency').as('currency'),
      'plans.billing_interval as billing_interval',
      eb.fn.coalesce('plan_prices.price_minor', 'plans.price_minor').as('price_minor'),
      'coupons.percent_off as percent_off',
      'coupons.amount_off_minor as amount_off_minor',
      'coupons.currency as coupon_currency',
      'coupons.duration as coupon_duration',
      eb.fn.countAll<number | string>().as('subscriptions'),
      eb.fn.sum<number | string>('subscriptions.seats').as('seats'),
    ])
    .where('subscriptions.status', 'in', ['active', 'past_due'])
    .groupBy([
      'subscriptions.currency',
      'plans.currency',
      'plans.billing_interval',
      'plans.price_minor',
      'plan_prices.price_minor',
      'coupons.percent_off',
      'coupons.amount_off_minor',
      'coupons.currency',
      'coupons.duration',
    ])
    .execute();

/**
 * Subscriptions by status now (and those with a pause coming), and the churn window's cohort: those live at `since` (a charge paid
 * by then and not ended by then) and how many of them ended between `since` and `nowIso`.
 */
export const countSubscriptions = (db: DbOrTransaction, since: string, nowIso: string) =>
  db
    .selectFrom('subscriptions')
    .select((eb) => {
      const liveAtStart = eb.and([
        eb.exists(
          eb
            .selectFrom('payments')
            .select(sql.lit(1).as('paid'))
            .whereRef('payments.subscription_id', '=', 'subscriptions.id')
            .where('payments.status', '=', 'paid')
            .where('payments.paid_at', '<=', since),
        ),
        eb.or([eb('subscriptions.ended_at', 'is', null), eb('subscriptions.ended_at', '>', since)]),
      ]);
      return [
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'active').as('active'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'past_due').as('past_due'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'suspended').as('suspended'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'paused').as('paused'),
        eb.fn
          .countAll<number | string>()
          .filterWhere(
            eb.and([
              eb('status', '=', 'active'),
              eb('pause_resumes_at', 'is not', null),
              // A cancellation at the period's end outruns the pause.
              eb('cancel_at_period_end', '=', 0),
            ]),
          )
          .as('pause_planned'),
        eb.fn.countAll<number | string>().filterWhere(liveAtStart).as('live_at_start'),
        eb.fn
          .countAll<number | string>()
          .filterWhere(eb.and([liveAtStart, eb('subscriptions.ended_at', '<=', nowIso)]))
          .as('ended'),
      ];
    })
    .executeTakeFirstOrThrow();

/** Subscription charges that failed since `since` (a charge retried and then paid is paid, not failed). */
export const countFailedCharges = (db: DbOrTransaction, since: string) =>
  db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number | string>().as('failed'))
    .where('kind', '=', 'subscription')
    .where('status', '=', 'failed')
    .where('updated_at', '>=', since)
    .executeTakeFirstOrThrow();
