import { sql } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UsageOverageChargeRow } from '../../platform/db/tables-usage-overage.js';

/** A license's counters of periods that started before `before`, of the features named, with what packs paid. */
export async function countersBefore(
  db: DbOrTransaction,
  licenseId: string,
  featureIds: string[],
  before: string,
) {
  if (featureIds.length === 0) return [];
  const rows = await db
    .selectFrom('usage_counters')
    .select(['feature_id', 'period_start', 'total', 'from_packs'])
    .where('license_id', '=', licenseId)
    .where('feature_id', 'in', featureIds)
    .where('period_start', '<', before)
    .execute();
  return rows.map((row) => ({ ...row, total: Number(row.total), from_packs: Number(row.from_packs) }));
}

/** Units and amount billed (or pending on an add-on) so far per `${feature}|${period start}`. */
export async function billedSoFar(db: DbOrTransaction, licenseId: string) {
  const rows = await db
    .selectFrom('usage_overage_charges')
    .select(['feature_id', 'period_start'])
    .select((eb) => [
      eb.fn.sum<number | string>('units').as('units'),
      eb.fn.sum<number | string>('amount_minor').as('amount'),
    ])
    .where('license_id', '=', licenseId)
    .groupBy(['feature_id', 'period_start'])
    .execute();
  return new Map(
    rows.map((row) => [
      `${row.feature_id}|${row.period_start}`,
      { units: Number(row.units), amountMinor: Number(row.amount) },
    ]),
  );
}

export async function insertOverageCharges(db: DbOrTransaction, rows: UsageOverageChargeRow[]) {
  if (rows.length > 0) await db.insertInto('usage_overage_charges').values(rows).execute();
}

/** The add-ons of a subscription still waiting for its next charge. */
export const pendingOfSubscription = (db: DbOrTransaction, subscriptionId: string) =>
  db
    .selectFrom('usage_overage_charges')
    .selectAll()
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .orderBy('period_start')
    .orderBy('feature_id')
    .execute();

/**
 * Marks a subscription's pending add-ons billed on its charge `paymentId`: only those the provider
 * accepted (an add-on id) and only while still pending, so a replay finds none.
 */
export async function billPending(
  db: DbOrTransaction,
  subscriptionId: string,
  paymentId: string,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('usage_overage_charges')
    .set({ status: 'billed', payment_id: paymentId, billed_at: at })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .where('provider_addon_id', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Notes the provider's add-on of a pending row; a row that has one keeps it. */
export async function setAddon(db: DbOrTransaction, id: string, addonId: string): Promise<void> {
  await db
    .updateTable('usage_overage_charges')
    .set({ provider_addon_id: addonId })
    .where('id', '=', id)
    .where('provider_addon_id', 'is', null)
    .execute();
}

/**
 * A subscription's pending rows with no add-on noted: recorded, but the provider's answer never
 * came back (refused, lost, or the process stopped before noting it).
 */
export const unplacedOfSubscription = (db: DbOrTransaction, subscriptionId: string) =>
  db
    .selectFrom('usage_overage_charges')
    .innerJoin('features', 'features.id', 'usage_overage_charges.feature_id')
    .selectAll('usage_overage_charges')
    .select(['features.key', 'features.name', 'features.unit', 'features.period'])
    .where('usage_overage_charges.subscription_id', '=', subscriptionId)
    .where('usage_overage_charges.status', '=', 'pending')
    .where('usage_overage_charges.provider_addon_id', 'is', null)
    .orderBy('usage_overage_charges.created_at')
    .orderBy('usage_overage_charges.period_start')
    .orderBy('usage_overage_charges.feature_id')
    .execute();

/** The overage a charge billed, with each feature's name, oldest period first. */
export const overageOfPayment = (db: DbOrTransaction, paymentId: string) =>
  db
    .selectFrom('usage_overage_charges')
    .innerJoin('features', 'features.id', 'usage_overage_charges.feature_id')
    .selectAll('usage_overage_charges')
    .select(['features.key', 'features.name', 'features.unit', 'features.period'])
    .where('usage_overage_charges.payment_id', '=', paymentId)
    .orderBy('usage_overage_charges.period_start')
    .orderBy('features.key')
    .execute();

export async function setInvoiceOfPayment(db: DbOrTransaction, paymentId: string, invoiceId: string) {
  await db
    .updateTable('usage_overage_charges')
    .set({ invoice_id: invoiceId })
    .where('payment_id', '=', paymentId)
    .execute();
}

/**
 * Licenses that may owe overage of an ended period: a counter past the allowance of a feature
 * its plan bills over, started before `before`, and not billed in full. A superset (what credit
 * packs paid for, and a month counter of the running month, are left to the exact reckoning).
 */
export async function licensesOverAllowance(db: DbOrTransaction, before: string): Promise<string[]> {
  const rows = await db
    .selectFrom('usage_counters as counter')
    .innerJoin('licenses', 'licenses.id', 'counter.license_id')
    .innerJoin('plan_features', (join) =>
      join
        .onRef('plan_features.plan_id', '=', 'licenses.plan_id')
        .onRef('plan_features.feature_id', '=', 'counter.feature_id'),
    )
    .select('counter.license_id')
    .distinct()
    .where('licenses.subscription_id', 'is not', null)
    .where('plan_features.overage_policy', 'in', ['bill', 'cap'])
    .where('plan_features.limit_value', 'is not', null)
    .where('counter.period_start', '<', before)
    .where(
      sql<boolean>`counter.total - plan_features.limit_value > coalesce((
        select sum(charge.units) from usage_overage_charges charge
        where charge.license_id = counter.license_id and charge.feature_id = counter.feature_id
          and charge.period_start = counter.period_start), 0)`,
    )
    .execute();
  return rows.map((row) => row.license_id);
}

/** Licenses with overage recorded whose add-on was never noted: the next run places or finds it. */
export async function licensesWithUnplaced(db: DbOrTransaction): Promise<string[]> {
  const rows = await db
    .selectFrom('usage_overage_charges')
    .select('license_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('provider_addon_id', 'is', null)
    .execute();
  return rows.map((row) => row.license_id);
}

/** Pending overage of a license: add-ons waiting for its subscription's next charge. */
export const pendingOfLicense = (db: DbOrTransaction, licenseId: string) =>
  db
    .selectFrom('usage_overage_charges')
    .select(['feature_id', 'amount_minor', 'units'])
    .where('license_id', '=', licenseId)
    .where('status', '=', 'pending')
    .execute();

/** What a license's subscription says of its next charge, for the overage it will carry. */
export const subscriptionTerms = (db: DbOrTransaction, subscriptionId: string) =>
  db
    .selectFrom('subscriptions')
    .select(['status', 'current_period_end', 'cancel_at_period_end', 'created_at'])
    .where('id', '=', subscriptionId)
    .executeTakeFirst();

/** Overage billed by charges settled in [from, to), per currency: the revenue it brought. */
export async function billedOverageBetween(db: DbOrTransaction, range: { from: string; to: string }) {
  const rows = await db
    .selectFrom('usage_overage_charges')
    .select((eb) => ['currency', eb.fn.sum<number | string>('amount_minor').as('amount')])
    .where('status', '=', 'billed')
    .where('billed_at', '>=', range.from)
    .where('billed_at', '<', range.to)
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({ currency: row.currency, amount_minor: Number(row.amount) }));
}
