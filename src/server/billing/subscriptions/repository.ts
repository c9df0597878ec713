import { sql, type Updateable } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type {
  PaymentRow,
  ProviderPlansTable,
  SubscriptionRow,
  SubscriptionsTable,
} from '../../platform/db/tables.js';
import { type PaymentWithPlan, paymentsWithPlan } from '../payments/repository.js';
import { LIVE } from './refusals.js';
import type { OwnershipTransferredEvent } from '../../licensing/index.js';

export const findSubscription = (db: DbOrTransaction, id: string): Promise<SubscriptionRow | undefined> =>
  db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();

/** An organisation's newest subscription that still charges (active, past due or suspended). */
export const findLiveSubscriptionOfOrganisation = (
  db: DbOrTransaction,
  organisationId: string,
): Promise<SubscriptionRow | undefined> =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('status', 'in', [...LIVE])
    .orderBy('created_at', 'desc')
    .executeTakeFirst();

/** Whether the organisation has a subscription that still charges: the id of one, if so. */
export const findLiveSubscriptionIdOfOrganisation = (
  db: DbOrTransaction,
  organisationId: string,
): Promise<Pick<SubscriptionRow, 'id'> | undefined> =>
  db
    .selectFrom('subscriptions')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where('status', 'in', [...LIVE])
    .executeTakeFirst();

export const findSubscriptionByProviderId = (
  db: DbOrTransaction,
  providerSubscriptionId: string,
): Promise<SubscriptionRow | undefined> =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('provider_subscription_id', '=', providerSubscriptionId)
    .executeTakeFirst();

/** The user's own subscription by our id or the provider's. */
export const findOwnSubscription = (
  db: DbOrTransaction,
  userId: string,
  id: string,
): Promise<SubscriptionRow | undefined> =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('id', '=', id), eb('provider_subscription_id', '=', id)]))
    .executeTakeFirst();

export const subscriptionsOfUser = (db: DbOrTransaction, userId: string): Promise<SubscriptionRow[]> =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '<>', 'pending')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

export async function insertSubscription(db: DbOrTransaction, row: SubscriptionRow): Promise<void> {
  await db.insertInto('subscriptions').values(row).execute();
}

/**
 * Takes the subscription's row lock for the rest of the transaction (an update that changes nothing
 * still locks the row on PostgreSQL; SQLite runs one write transaction at a time anyway), so a
 * renewal and a customer's cancellation or plan change happen one after the other, never interleaved.
 */
export async function lockSubscription(trx: DbOrTransaction, id: string): Promise<void> {
  await trx
    .updateTable('subscriptions')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .execute();
}

/** Changes a subscription and raises its version; with `version`, only if nothing changed it since. */
export async function updateSubscription(
  db: DbOrTransaction,
  id: string,
  changes: Omit<Updateable<SubscriptionsTable>, 'version'>,
  where: { version?: number; statuses?: SubscriptionRow['status'][] } = {},
): Promise<SubscriptionRow | undefined> {
  let query = db
    .updateTable('subscriptions')
    .set((eb) => ({ ...changes, version: eb('version', '+', 1) }))
    .where('id', '=', id);
  if (where.version !== undefined) query = query.where('version', '=', where.version);
  if (where.statuses) query = query.where('status', 'in', where.statuses);
  return query.returningAll().executeTakeFirst();
}

/** The payment of one charge, by the key the provider and we both derive for it. */
/**
 * The subscriptions an organisation's previous owner held for it pass to its new owner (who
 * manages them, gets their mail and pays from then on), with the transfer's time.
 */
export async function transferOrganisationSubscriptions(
  db: DbOrTransaction,
  { organisationId, previousOwnerId, newOwnerId, at }: OwnershipTransferredEvent,
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ user_id: newOwnerId, updated_at: at })
    .where('organisation_id', '=', organisationId)
    .where('user_id', '=', previousOwnerId)
    .execute();
}

export const findChargePayment = (db: DbOrTransaction, chargeKey: string): Promise<PaymentRow | undefined> =>
  db.selectFrom('payments').selectAll().where('provider_order_id', '=', chargeKey).executeTakeFirst();

export const findPaymentByProviderPaymentId = (
  db: DbOrTransaction,
  providerPaymentId: string,
): Promise<PaymentRow | undefined> =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('provider_payment_id', '=', providerPaymentId)
    .executeTakeFirst();

/**
 * The payment row of a charge, created on first report: two reports of one charge at once both end
 * up with the same row (the second insert waits for the first and does nothing, then reads it).
 */
export async function chargePaymentRow(db: DbOrTransaction, row: PaymentRow): Promise<PaymentRow> {
  await db
    .insertInto('payments')
    .values(row)
    .onConflict((conflict) => conflict.column('provider_order_id').doNothing())
    .execute();
  const stored = await findChargePayment(db, row.provider_order_id);
  if (!stored) throw new Error(`the payment of charge ${row.provider_order_id} was not written`);
  return stored;
}

/** Records what a charge paid, as reported. */
export async function setChargeAmount(
  db: DbOrTransaction,
  paymentId: string,
  amount: { amountMinor: number; currency: string },
): Promise<void> {
  await db
    .updateTable('payments')
    .set({ amount_minor: amount.amountMinor, currency: amount.currency })
    .where('id', '=', paymentId)
    .execute();
}

/** Records what a settled charge paid, the period it pays for and the license it extended. */
export async function setSettledCharge(
  db: DbOrTransaction,
  paymentId: string,
  charge: Pick<PaymentRow, 'license_id' | 'amount_minor' | 'currency' | 'period_start' | 'period_end'>,
): Promise<void> {
  await db
    .updateTable('payments')
    .set({
      license_id: charge.license_id,
      amount_minor: charge.amount_minor,
      currency: charge.currency,
      period_start: charge.period_start,
      period_end: charge.period_end,
    })
    .where('id', '=', paymentId)
    .execute();
}

/** The paid charge of the period that ends at `periodEnd` (what a plan change credits back). */
export const paidChargeOfPeriod = (
  db: DbOrTransaction,
  subscriptionId: string,
  periodEnd: string,
): Promise<PaymentRow | undefined> =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'paid')
    .where('period_end', '=', periodEnd)
    .executeTakeFirst();

/** Every charge of the subscription with its plan's code and name, newest first. */
export const chargesOfSubscription = (
  db: DbOrTransaction,
  subscriptionId: string,
): Promise<PaymentWithPlan[]> =>
  paymentsWithPlan(db)
    .where('payments.subscription_id', '=', subscriptionId)
    .orderBy('payments.created_at', 'desc')
    .orderBy('payments.id', 'desc')
    .execute();

/** Subscriptions with work due at `now`, oldest first, a batch at a time. */
export const dueSubscriptions = (
  db: DbOrTransaction,
  now: string,
  limit: number,
): Promise<SubscriptionRow[]> =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where((eb) =>
      eb.or([
        // The sandbox charges renewals itself; a provider's are reported by its webhooks.
        eb.and([
          eb('status', '=', 'active'),
          eb('current_period_end', '<=', now),
          eb.or([eb('provider', '=', 'sandbox'), eb('cancel_at_period_end', '=', 1)]),
        ]),
        // A provider's renewal not reported yet: the license is kept valid for the grace period, once.
        eb.and([
          eb('status', '=', 'active'),
          eb('current_period_end', '<=', now),
          eb('provider', '!=', 'sandbox'),
          eb('grace_ends_at', 'is', null),
        ]),
        eb.and([eb('status', '=', 'past_due'), eb('grace_ends_at', '<=', now)]),
        // A pause over: the subscription resumes and its next period is billed.
        eb.and([eb('status', '=', 'paused'), eb('pause_resumes_at', '<=', now)]),
        eb.and([
          eb('status', '=', 'past_due'),
          eb('provider', '=', 'sandbox'),
          eb('next_retry_at', '<=', now),
        ]),
      ]),
    )
    .orderBy(sql`coalesce(next_retry_at, current_period_end)`)
    .limit(limit)
    .execute();

/**
 * Subscriptions with a reminder due: an active yearly one renewing before `renewBefore`, or a past
 * due one whose grace ends before `graceBefore`; neither once its moment (after `now`) has passed.
 */
export const dueForReminders = (
  db: DbOrTransaction,
  at: { now: string; renewBefore: string; graceBefore: string },
  limit: number,
): Promise<SubscriptionRow[]> =>
  db
    .selectFrom('subscriptions')
    .innerJoin('plans', 'plans.id', 'subscriptions.plan_id')
    .selectAll('subscriptions')
    .where((eb) =>
      eb.or([
        eb.and([
          eb('subscriptions.status', '=', 'active'),
          eb('subscriptions.cancel_at_period_end', '=', 0),
          // A pause asked for: the period's end starts the pause, not a renewal.
          eb('subscriptions.pause_resumes_at', 'is', null),
          // A card trial's first charge is told by the trial's own reminders (licensing's).
          eb('subscriptions.cycles', '>', 0),
          eb('plans.billing_interval', '=', 'year'),
          eb('subscriptions.current_period_end', '<=', at.renewBefore),
          eb('subscriptions.current_period_end', '>', at.now),
        ]),
        eb.and([
          eb('subscriptions.status', '=', 'past_due'),
          eb('subscriptions.grace_ends_at', '<=', at.graceBefore),
          eb('subscriptions.grace_ends_at', '>', at.now),
        ]),
      ]),
    )
    .limit(limit)
    .execute();

type ProviderPlanKey = Omit<ProviderPlansTable, 'provider_plan_id' | 'created_at'>;

/** The provider's plan for one of ours at one price and interval, if one was made. */
export async function findProviderPlan(
  db: DbOrTransaction,
  key: ProviderPlanKey,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('provider_plans')
    .select('provider_plan_id')
    .where('provider', '=', key.provider)
    .where('plan_id', '=', key.plan_id)
    .where('price_minor', '=', key.price_minor)
    .where('currency', '=', key.currency)
    .where('billing_interval', '=', key.billing_interval)
    .executeTakeFirst();
  return row?.provider_plan_id;
}

/** Keeps the provider's plan; when another was kept first, answers that one. */
export async function saveProviderPlan(db: DbOrTransaction, row: ProviderPlansTable): Promise<string> {
  await db
    .insertInto('provider_plans')
    .values(row)
    .onConflict((conflict) => conflict.doNothing())
    .execute();
  return (await findProviderPlan(db, row)) ?? row.provider_plan_id;
}

/**
 * Subscriptions Razorpay must be told charge no more: replaced by a plan change, ended at the
 * customer's request, or cancelled at a period end before `stopBefore`; not yet closed there.
 */
export const dueAtProvider = (db: DbOrTransaction, stopBefore: string): Promise<SubscriptionRow[]> =>
  db
    .selectFrom('subscriptions')
    .selectAll()
    .where('provider', '!=', 'sandbox')
    .where('provider_closed_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('closeout_refund_minor', 'is not', null),
        eb.and([eb('status', '=', 'cancelled'), eb('cancel_requested_at', 'is not', null)]),
        eb.and([
          eb('status', '=', 'active'),
          eb('cancel_at_period_end', '=', 1),
          eb('current_period_end', '<=', stopBefore),
        ]),
      ]),
    )
    .orderBy('updated_at')
    .limit(100)
    .execute();

/** The currencies the plan's subscriptions not yet ended are charged in. */
export async function liveSubscriptionCurrencies(db: DbOrTransaction, planId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('currency')
    .distinct()
    .where('plan_id', '=', planId)
    .where('status', '!=', 'cancelled')
    // Every row has one since 0054 filled them in.
    .where('currency', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.currency ? [row.currency] : []));
}
