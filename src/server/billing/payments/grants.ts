import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PaymentRow } from '../../platform/db/tables.js';
import { extendByInterval, findLicenseById, issueLicense } from '../../licensing/index.js';
import { issueInvoiceForPayment, type ServicePeriod } from '../invoices/issue.js';
import type { InvoiceSettings } from '../invoices/settings.js';
import { findPlanRow } from '../../catalogue/index.js';
import type { BillingEvents } from '../events.js';
import { claimPayment, findPaymentRow, setPaymentLicense } from './repository.js';

/** How a capture of a payment ended for the caller that reported it. */
export type Settlement =
  | { outcome: 'granted'; payment: PaymentRow; license: LicenseRow | undefined }
  /** Already paid by this very provider payment: a replay, answered with what it granted. */
  | { outcome: 'already_paid'; payment: PaymentRow; license: LicenseRow | undefined }
  /** Already paid by another provider payment of the same order. */
  | { outcome: 'paid_by_other'; payment: PaymentRow };

/**
 * Marks the payment paid and grants its plan, exactly once however many verifies and webhooks
 * report it at the same time: the conditional UPDATE lets one caller win, and only the winner
 * grants and issues the payment's invoice. Run it inside a transaction so the grant and the
 * invoice (and its number) commit with the status, or not at all.
 */
export async function settlePayment(
  trx: DbOrTransaction,
  clock: Clock,
  events: BillingEvents,
  paymentId: string,
  providerPaymentId: string,
  invoicing: InvoiceSettings,
): Promise<Settlement> {
  const now = clock.now().toISOString();
  const won = await claimPayment(trx, paymentId, providerPaymentId, now);
  if (!won) {
    const current = await findPaymentRow(trx, paymentId);
    if (current.provider_payment_id !== providerPaymentId)
      return { outcome: 'paid_by_other', payment: current };
    const license = current.license_id ? await findLicenseById(trx, current.license_id) : undefined;
    return { outcome: 'already_paid', payment: current, license };
  }
  // The buyer's account was deleted between order and payment: the money is recorded and
  // invoiced (every successful charge has its invoice), nobody to grant to.
  if (!won.user_id) {
    await issueInvoiceForPayment(trx, clock, invoicing, won.id);
    return { outcome: 'granted', payment: won, license: undefined };
  }
  const { license, period } = await grantPaidPlan(trx, clock, events, { ...won, user_id: won.user_id });
  await setPaymentLicense(trx, won.id, license.id);
  // Issued once the grant says which period the payment bought, for the invoice's service period.
  const invoice = await issueInvoiceForPayment(trx, clock, invoicing, won.id, { period });
  // Announced with its invoice and the license's new end, which the receipt tells.
  await events.publish(trx, {
    type: 'payment.paid',
    payment: { ...won, license_id: license.id },
    invoice,
    paidUntil: license.expires_at,
  });
  return { outcome: 'granted', payment: { ...won, license_id: license.id }, license };
}

/**
 * Extends the buyer's active license of the plan by one billing interval (from its expiry, or from
 * now if that is later); issues a new license when there is none, or when the plan never expires.
 * Answers the license and the period the payment bought (null for a lifetime).
 */
async function grantPaidPlan(
  trx: DbOrTransaction,
  clock: Clock,
  events: BillingEvents,
  payment: PaymentRow & { user_id: string },
): Promise<{ license: LicenseRow; period: ServicePeriod | null }> {
  const plan = await findPlanRow(trx, payment.plan_id);
  if (!plan) throw new Error(`plan ${payment.plan_id} of payment ${payment.id} is gone`);
  const extended = await extendByInterval(trx, clock, payment.user_id, plan);
  if (extended)
    return {
      license: extended.license,
      period: extended.license.expires_at
        ? { start: extended.from.toISOString(), end: extended.license.expires_at }
        : null,
    };
  const license = await issueLicense(trx, clock, events, {
    userId: payment.user_id,
    plan,
    metadata: { payment_id: payment.id, order_id: payment.provider_order_id },
  });
  return {
    license,
    period: license.expires_at ? { start: license.created_at, end: license.expires_at } : null,
  };
}
