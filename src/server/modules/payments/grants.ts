import type { Clock } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { LicenseRow, PaymentRow } from '../../db/tables.js';
import { expiryAfterInterval } from '../licenses/periods.js';
import { issueLicense } from '../licenses/service.js';
import { effectiveStatus } from '../licenses/views.js';
import { findPlanRow } from '../plans/repository.js';
import { providerPaymentIdTaken } from './repository.js';

/** How a capture of a payment ended for the caller that reported it. */
export type Settlement =
  | { outcome: 'granted'; payment: PaymentRow; license: LicenseRow | undefined }
  /** Already paid by this very provider payment: a replay, answered with what it granted. */
  | { outcome: 'already_paid'; payment: PaymentRow; license: LicenseRow | undefined }
  /** Already paid by another provider payment of the same order. */
  | { outcome: 'paid_by_other'; payment: PaymentRow };

/** Optimistic retries of an extension that raced another one on the same license. */
const EXTENSION_ATTEMPTS = 5;

/**
 * Marks the payment paid and grants its plan, exactly once however many verifies and webhooks
 * report it at the same time: the conditional UPDATE lets one caller win, and only the winner
 * grants. Run it inside a transaction so the grant commits with the status, or not at all.
 */
export async function settlePayment(
  trx: DbOrTransaction,
  clock: Clock,
  paymentId: string,
  providerPaymentId: string,
): Promise<Settlement> {
  const now = clock.now().toISOString();
  const won = await claimPayment(trx, paymentId, providerPaymentId, now);
  if (!won) {
    const current = await trx
      .selectFrom('payments')
      .selectAll()
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    if (current.provider_payment_id !== providerPaymentId)
      return { outcome: 'paid_by_other', payment: current };
    const license = current.license_id
      ? await trx.selectFrom('licenses').selectAll().where('id', '=', current.license_id).executeTakeFirst()
      : undefined;
    return { outcome: 'already_paid', payment: current, license };
  }
  // The buyer's account was deleted between order and payment: the money is recorded, nobody to grant to.
  if (!won.user_id) return { outcome: 'granted', payment: won, license: undefined };
  const license = await grantPaidPlan(trx, clock, { ...won, user_id: won.user_id });
  await trx.updateTable('payments').set({ license_id: license.id }).where('id', '=', won.id).execute();
  return { outcome: 'granted', payment: { ...won, license_id: license.id }, license };
}

/** The conditional UPDATE only one caller can win: the row as it is now paid, or undefined. */
async function claimPayment(
  trx: DbOrTransaction,
  paymentId: string,
  providerPaymentId: string,
  now: string,
): Promise<PaymentRow | undefined> {
  try {
    return await trx
      .updateTable('payments')
      .set({
        status: 'paid',
        provider_payment_id: providerPaymentId,
        paid_at: now,
        updated_at: now,
        failure_reason: null,
      })
      .where('id', '=', paymentId)
      .where('status', '<>', 'paid')
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    if (isUniqueViolation(error)) throw providerPaymentIdTaken();
    throw error;
  }
}

/**
 * Extends the buyer's active license of the plan by one billing interval (from its expiry, or from
 * now if that is later); issues a new license when there is none, or when the plan never expires.
 */
async function grantPaidPlan(
  trx: DbOrTransaction,
  clock: Clock,
  payment: PaymentRow & { user_id: string },
): Promise<LicenseRow> {
  const plan = await findPlanRow(trx, payment.plan_id);
  if (!plan) throw new Error(`plan ${payment.plan_id} of payment ${payment.id} is gone`);
  const interval = plan.billing_interval;
  if (interval === 'month' || interval === 'year') {
    for (let attempt = 0; attempt < EXTENSION_ATTEMPTS; attempt++) {
      const now = clock.now();
      const active = await trx
        .selectFrom('licenses')
        .selectAll()
        .where('user_id', '=', payment.user_id)
        .where('plan_id', '=', plan.id)
        .where('status', '=', 'active')
        .where('base_owner_id', 'is', null)
        .orderBy('expires_at', 'desc')
        .orderBy('id')
        .execute();
      const current = active.find((row) => effectiveStatus(row, now) === 'active');
      if (!current) break;
      const from =
        current.expires_at && Date.parse(current.expires_at) > now.getTime()
          ? new Date(current.expires_at)
          : now;
      const extended = await trx
        .updateTable('licenses')
        .set({ expires_at: expiryAfterInterval(interval, from), updated_at: now.toISOString() })
        .where('id', '=', current.id)
        .where('status', '=', 'active')
        // Unchanged since it was read: another payment extending it at the same moment retries.
        .where((eb) =>
          current.expires_at === null
            ? eb('expires_at', 'is', null)
            : eb('expires_at', '=', current.expires_at),
        )
        .returningAll()
        .executeTakeFirst();
      if (extended) return extended;
    }
  }
  return issueLicense(trx, clock, {
    userId: payment.user_id,
    plan,
    metadata: { payment_id: payment.id, order_id: payment.provider_order_id },
  });
}
