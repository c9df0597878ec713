import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { currentPeriodStart } from '../../catalogue/index.js';
import {
  findLicenseById,
  licensesOverAllowance,
  licensesWithUnplacedOverage,
  lockLicense,
  overageOwed,
  recordOverage,
  setOverageAddon,
  unplacedOverageOfSubscription,
} from '../../licensing/index.js';
import { overageLineWords } from '../invoices/overage-lines.js';
import { type PaymentProvider, PaymentProviderError } from '../payments/provider.js';
import type { CyclePricing } from './cycle-amount.js';
import { renewingSubscriptionsOf } from './overage-repository.js';

/** How far before a row was recorded its add-on is looked for: the provider's clock may differ from ours. */
const LOOKUP_SLACK_SECONDS = 86_400;

/** The stable reference an add-on's description carries: the overage row it bills, recorded first. */
export const overageReference = (rowId: string) => `ref ${rowId}`;

type Unplaced = Awaited<ReturnType<typeof unplacedOverageOfSubscription>>[number];

/**
 * Razorpay bills extra charges on a subscription as add-ons on its next invoice: once a usage
 * period has ended, the overage it owes is recorded pending (under the license's lock, so two runs
 * record it once) and put on the subscription at Razorpay, taxed as the plan's price is; the
 * `subscription.charged` that settles the next renewal itemises it and marks it billed. The sandbox
 * bills overage in its renewal's own charge instead.
 *
 * Never billed twice: the row is written before Razorpay is asked, and the add-on's description
 * carries the row's id. A row whose add-on was not noted (refused, the answer lost, the process
 * stopped in between) stays pending; the next run first looks for an add-on with its reference and
 * notes that one, and asks for a new one only when there is none.
 */
export function createOverageAddons({
  db,
  clock,
  provider,
  pricing,
  log,
}: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  pricing: CyclePricing;
  log: FastifyBaseLogger;
}) {
  return {
    /** Puts what every renewing subscription's ended periods owe on it; answers how many add-ons. */
    async placeDue(): Promise<number> {
      const gateway = provider.subscriptions;
      if (provider.sandbox || !gateway) return 0;
      const now = clock.now();
      const licenseIds = [
        ...new Set([
          ...(await licensesOverAllowance(db, currentPeriodStart('day', now))),
          ...(await licensesWithUnplacedOverage(db)),
        ]),
      ];
      const subscriptions = await renewingSubscriptionsOf(db, provider.name, licenseIds);
      let placed = 0;
      for (const subscription of subscriptions) {
        const licenseId = subscription.license_id;
        if (!licenseId) continue;
        // Rows of earlier runs first: their add-on may exist already.
        const earlier = new Set(
          (await unplacedOverageOfSubscription(db, subscription.id)).map((row) => row.id),
        );
        await db.transaction().execute(async (trx) => {
          await lockLicense(trx, licenseId);
          const license = await findLicenseById(trx, licenseId);
          if (!license) return;
          const owed = await overageOwed(trx, license, subscription.created_at, now);
          await recordOverage(trx, {
            licenseId,
            subscriptionId: subscription.id,
            owed,
            at: now.toISOString(),
          });
        });
        for (const row of await unplacedOverageOfSubscription(db, subscription.id)) {
          try {
            const addonId =
              (earlier.has(row.id)
                ? await existingAddon(subscription.provider_subscription_id, row)
                : undefined) ??
              (await gateway.addCharge(subscription.provider_subscription_id, {
                name: `${row.name} over the allowance`,
                description: `${describe(row)} (${overageReference(row.id)})`,
                amount: pricing.overageGross(
                  [Number(row.amount_minor)],
                  await pricing.taxOf(db, subscription),
                ),
                currency: row.currency,
              }));
            await setOverageAddon(db, row.id, addonId);
            placed += 1;
          } catch (error) {
            if (!(error instanceof PaymentProviderError)) throw error;
            // Kept pending: the next run looks for its add-on before asking again.
            log.error({ detail: error.detail, subscription: subscription.id }, error.message);
          }
        }
      }
      return placed;

      function existingAddon(providerSubscriptionId: string, row: Unplaced) {
        const since = Math.floor(Date.parse(row.created_at) / 1000) - LOOKUP_SLACK_SECONDS;
        return gateway!.findCharge(providerSubscriptionId, overageReference(row.id), since);
      }
    },
  };
}

const describe = (row: Unplaced) =>
  overageLineWords({
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
  });
