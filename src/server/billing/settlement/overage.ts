import type { DbOrTransaction } from '../../platform/db/database.js';
import type { InvoiceRow, LicenseRow } from '../../platform/db/tables.js';
import {
  type BilledOverage,
  billPendingOverage,
  noteOverageInvoice,
  overageBilledOn,
  type OverageOwed,
  recordOverage,
} from '../../licensing/index.js';
import type { BillingEvents } from '../events.js';

/**
 * The overage a renewal's settled charge bills, recorded in its transaction after its claim was
 * won (so a replayed report or a retried renewal records nothing twice): what the sandbox priced
 * into the charge (`owed`), and the Razorpay add-ons the provider put on this charge. Answers the
 * invoice's overage lines.
 */
export async function billOverageOn(
  trx: DbOrTransaction,
  input: { licenseId: string; subscriptionId: string; paymentId: string; owed: OverageOwed[]; at: string },
): Promise<BilledOverage[]> {
  const { licenseId, subscriptionId, paymentId, owed, at } = input;
  if (owed.length > 0) await recordOverage(trx, { licenseId, subscriptionId, owed, at, paymentId });
  const added = await billPendingOverage(trx, subscriptionId, paymentId, at);
  return owed.length > 0 || added > 0 ? overageBilledOn(trx, paymentId) : [];
}

/** Notes the invoice each line went on and announces it charged (`usage.overage_charged`). */
export async function announceOverage(
  trx: DbOrTransaction,
  events: BillingEvents,
  input: { license: LicenseRow; paymentId: string; billed: BilledOverage[]; invoice: InvoiceRow },
): Promise<void> {
  const { license, paymentId, billed, invoice } = input;
  if (billed.length === 0) return;
  await noteOverageInvoice(trx, paymentId, invoice.id);
  for (const overage of billed)
    await events.publish(trx, {
      type: 'usage.overage_charged',
      license,
      overage: {
        featureId: overage.featureId,
        featureKey: overage.featureKey,
        period: overage.period,
        periodStart: overage.periodStart,
        periodEnd: overage.periodEnd,
        units: overage.units,
        amountMinor: overage.amountMinor,
        currency: overage.currency,
        invoice: { id: invoice.id, number: invoice.number },
        paymentId,
      },
    });
}
