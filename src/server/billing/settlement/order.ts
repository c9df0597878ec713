import type { DbOrTransaction } from '../../platform/db/database.js';
import { findPlanIn } from '../../catalogue/index.js';
import { findLicenseById, grantPeriod } from '../../licensing/index.js';
import { issueInvoiceForPayment } from '../invoices/issue.js';
import { findPackOrder } from '../credit-packs/orders-repository.js';
import { claimPayment, findPaymentRow, setPaymentLicense } from '../payments/repository.js';
import { settlePackOrder } from './pack.js';
import { invoiceAndAnnounce, type OrderSettlement, type SettlementDeps } from './steps.js';

export type { OrderSettlement };

/** A one-off order's payment, captured: reported by the checkout's verify or the provider's webhook. */
export interface OrderCharge {
  kind: 'order';
  paymentId: string;
  providerPaymentId: string;
}

/**
 * Marks the order's payment paid and grants its plan, exactly once however many verifies and
 * webhooks report it at the same time: the conditional UPDATE lets one caller win, and only the
 * winner grants and issues the payment's invoice, which commit with the status or not at all.
 */
export async function settleOrder(
  trx: DbOrTransaction,
  deps: SettlementDeps,
  { paymentId, providerPaymentId }: OrderCharge,
): Promise<OrderSettlement> {
  const { clock, events, invoicing } = deps;
  const won = await claimPayment(trx, paymentId, providerPaymentId, clock.now().toISOString());
  if (!won) {
    const current = await findPaymentRow(trx, paymentId);
    if (current.provider_payment_id !== providerPaymentId)
      return { outcome: 'paid_by_other', payment: current };
    const license = current.license_id ? await findLicenseById(trx, current.license_id) : undefined;
    return { outcome: 'already_paid', payment: current, license };
  }
  // An order for credit packs buys units of a license's feature, not license time.
  const packOrder = await findPackOrder(trx, won.id);
  if (packOrder) return settlePackOrder(trx, deps, won, packOrder);
  // The buyer's account was deleted between order and payment: the money is recorded and
  // invoiced (every successful charge has its invoice), nobody to grant to.
  if (!won.user_id) {
    await issueInvoiceForPayment(trx, clock, invoicing, won.id);
    return { outcome: 'granted', payment: won, license: undefined };
  }
  // The plan at the price the order was opened at, in its currency.
  const plan = await findPlanIn(trx, won.plan_id, won.currency);
  if (!plan) throw new Error(`plan ${won.plan_id} of payment ${won.id} has no price in ${won.currency}`);
  const { license, period } = await grantPeriod(trx, clock, events, {
    order: { ...won, user_id: won.user_id },
    plan,
  });
  await setPaymentLicense(trx, won.id, license.id);
  const payment = { ...won, license_id: license.id };
  // Invoiced once the grant says which period the payment bought; the receipt tells the license's new end.
  await invoiceAndAnnounce(trx, deps, { payment, plan, period, paidUntil: license.expires_at });
  return { outcome: 'granted', payment, license };
}
