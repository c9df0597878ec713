import { randomUUID } from 'node:crypto';
import type { Overage, PlanFeature } from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow } from '../../platform/db/tables.js';
import type { UsageOverageChargeRow } from '../../platform/db/tables-usage-overage.js';
import { currentPeriodStart, featuresOfPlans, periodEnd } from '../../catalogue/index.js';
import { billableOverage, overageCharge } from './allowance.js';
import {
  billedSoFar,
  billPending,
  countersBefore,
  insertOverageCharges,
  overageOfPayment,
  setInvoiceOfPayment,
} from './overage-repository.js';
import { planCurrency } from './plan-currency.js';

// Overage is billed once its period has ended: what a period owes is its billable units past the
// allowance less the units already billed for it, so use reported late into a billed period is
// billed with the next charge, never twice. Its price is the difference between the whole
// period's overage charge and what was charged for it before, so blocks of `per_units` are never
// rounded up twice.

/** What one ended period of one metered feature owes and has not been billed. */
export interface OverageOwed {
  featureId: string;
  featureKey: string;
  featureName: string;
  unit: string | null;
  period: 'day' | 'month';
  periodStart: string;
  periodEnd: string;
  units: number;
  /** In the plan's price terms (before tax where prices exclude it), as a plan's price is. */
  amountMinor: number;
  currency: string;
  overage: Overage;
}

/** A plan's features whose use past the allowance is billed (bill, or cap). */
const billedFeatures = (features: PlanFeature[]) =>
  features.filter(
    (feature): feature is PlanFeature & { period: 'day' | 'month' } =>
      feature.kind === 'metered' &&
      feature.period !== null &&
      feature.limit !== null &&
      feature.overage.policy !== 'stop' &&
      feature.overage.price_minor !== null,
  );

/**
 * The overage the license owes of every period that has ended by `now` and ended after `since`
 * (the subscription's start: use before it was never to be billed by it), per feature its plan
 * bills over, oldest first. Read under the license's lock when it is to be billed.
 */
export async function overageOwed(
  db: DbOrTransaction,
  license: Pick<LicenseRow, 'id' | 'plan_id'>,
  since: string,
  now: Date,
): Promise<OverageOwed[]> {
  const features = billedFeatures((await featuresOfPlans(db, [license.plan_id])).get(license.plan_id) ?? []);
  if (features.length === 0) return [];
  const counters = await countersBefore(
    db,
    license.id,
    features.map((feature) => feature.feature_id),
    currentPeriodStart('day', now),
  );
  const billed = await billedSoFar(db, license.id);
  const currency = await planCurrency(db, license.plan_id);
  const owed: OverageOwed[] = [];
  for (const counter of counters) {
    const feature = features.find((each) => each.feature_id === counter.feature_id);
    if (!feature) continue;
    const end = periodEnd(feature.period, counter.period_start);
    if (end > now.toISOString() || end <= since) continue;
    // Units credit packs paid for are not overage.
    const billable = billableOverage(feature.limit, counter.total, counter.from_packs);
    const before = billed.get(`${counter.feature_id}|${counter.period_start}`) ?? {
      units: 0,
      amountMinor: 0,
    };
    const units = billable - before.units;
    const amountMinor = overageCharge(billable, feature.overage) - before.amountMinor;
    // Late use still inside a block already charged in full costs nothing more: it waits for more.
    if (units <= 0 || amountMinor <= 0) continue;
    owed.push({
      featureId: feature.feature_id,
      featureKey: feature.key,
      featureName: feature.name,
      unit: feature.unit,
      period: feature.period,
      periodStart: counter.period_start,
      periodEnd: end,
      units,
      amountMinor,
      currency,
      overage: feature.overage,
    });
  }
  return owed.sort(
    (a, b) => a.periodStart.localeCompare(b.periodStart) || a.featureKey.localeCompare(b.featureKey),
  );
}

/**
 * Records what a charge bills of the owed overage, in the charge's transaction: `billed` on the
 * settled charge `paymentId` (the sandbox's renewal), or `pending` until the subscription's next
 * charge carries the provider's add-on (Razorpay). Answers the rows written.
 */
export async function recordOverage(
  trx: DbOrTransaction,
  input: {
    licenseId: string;
    subscriptionId: string;
    owed: OverageOwed[];
    at: string;
    paymentId?: string;
  },
): Promise<UsageOverageChargeRow[]> {
  const rows = input.owed.map((owed): UsageOverageChargeRow => ({
    id: randomUUID(),
    license_id: input.licenseId,
    feature_id: owed.featureId,
    period_start: owed.periodStart,
    period_end: owed.periodEnd,
    units: owed.units,
    amount_minor: owed.amountMinor,
    currency: owed.currency,
    price_minor: owed.overage.price_minor ?? 0,
    per_units: owed.overage.per_units,
    subscription_id: input.subscriptionId,
    status: input.paymentId ? 'billed' : 'pending',
    provider_addon_id: null,
    payment_id: input.paymentId ?? null,
    invoice_id: null,
    created_at: input.at,
    billed_at: input.paymentId ? input.at : null,
  }));
  await insertOverageCharges(trx, rows);
  return rows;
}

/**
 * The subscription's add-ons the provider accepted, billed on its settled charge `paymentId`;
 * answers how many.
 */
export const billPendingOverage = (
  trx: DbOrTransaction,
  subscriptionId: string,
  paymentId: string,
  at: string,
): Promise<number> => billPending(trx, subscriptionId, paymentId, at);

/**
 * The overage a charge billed, with each feature's name and period: the invoice's lines, one per
 * feature and period (two add-ons of one period on the same renewal read as one).
 */
export async function overageBilledOn(db: DbOrTransaction, paymentId: string) {
  const rows = await overageOfPayment(db, paymentId);
  const lines = rows.map((row) => ({
    featureId: row.feature_id,
    featureKey: row.key,
    featureName: row.name,
    unit: row.unit,
    period: row.period ?? 'month',
    periodStart: row.period_start,
    periodEnd: row.period_end,
    units: Number(row.units),
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    priceMinor: Number(row.price_minor),
    perUnits: Number(row.per_units),
  }));
  const merged = new Map<string, (typeof lines)[number]>();
  for (const line of lines) {
    const key = `${line.featureId}|${line.periodStart}`;
    const earlier = merged.get(key);
    merged.set(
      key,
      earlier
        ? { ...line, units: earlier.units + line.units, amountMinor: earlier.amountMinor + line.amountMinor }
        : line,
    );
  }
  return [...merged.values()];
}
export type BilledOverage = Awaited<ReturnType<typeof overageBilledOn>>[number];

/** Notes the invoice a charge's overage went on. */
export const noteOverageInvoice = (trx: DbOrTransaction, paymentId: string, invoiceId: string) =>
  setInvoiceOfPayment(trx, paymentId, invoiceId);
