import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow, UsagePackOrdersTable } from '../../platform/db/tables.js';
import { findFeatureByIdOrKey, findPlanRow } from '../../catalogue/index.js';
import { addUsagePack, DEFAULT_PACK_VALID_MONTHS, findLicenseById } from '../../licensing/index.js';
import { setPaymentLicense } from '../payments/repository.js';
import { invoiceAndAnnounce, type OrderSettlement, type SettlementDeps } from './steps.js';

/**
 * An order for credit packs, its payment claimed by this caller: the packs' units are written to
 * the license (one pack row for the order, valid for USAGE_PACK_VALID_MONTHS), then the invoice
 * naming the pack and its expiry, and the payment announced paid, all in the claim's transaction.
 * The claim is won once, and the pack row is unique per payment besides: a replay adds nothing.
 */
export async function settlePackOrder(
  trx: DbOrTransaction,
  deps: SettlementDeps,
  payment: PaymentRow,
  order: UsagePackOrdersTable,
): Promise<OrderSettlement> {
  const { clock, events } = deps;
  const [license, feature, plan] = await Promise.all([
    findLicenseById(trx, order.license_id),
    findFeatureByIdOrKey(trx, order.feature_id),
    findPlanRow(trx, payment.plan_id),
  ]);
  if (!plan) throw new Error(`plan ${payment.plan_id} of payment ${payment.id} is gone`);
  const pack =
    license && feature
      ? await addUsagePack(trx, clock, events, {
          license,
          feature: { id: feature.id, key: feature.key, name: feature.name, unit: feature.unit },
          units: order.units * order.quantity,
          validMonths: deps.packValidMonths ?? DEFAULT_PACK_VALID_MONTHS,
          source: 'purchase',
          paymentId: payment.id,
        })
      : undefined;
  if (license && payment.license_id !== license.id) await setPaymentLicense(trx, payment.id, license.id);
  const paid = { ...payment, license_id: license?.id ?? null };
  await invoiceAndAnnounce(trx, deps, {
    payment: paid,
    plan,
    period: null,
    // Packs buy no license time: the receipt's invoice line says until when they may be drawn.
    paidUntil: null,
    pack: { validUntil: pack?.expires_at ?? null },
  });
  return { outcome: 'granted', payment: paid, license };
}
