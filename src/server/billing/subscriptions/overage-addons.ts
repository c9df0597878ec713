import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { currentPeriodStart } from '../../catalogue/index.js';
import {
  dropUnplacedOverage,
  findLicenseById,
  licensesOverAllowance,
  lockLicense,
  overageOwed,
  recordOverage,
  setOverageAddon,
} from '../../licensing/index.js';
import { overageLineWords } from '../invoices/overage-lines.js';
import { type PaymentProvider, PaymentProviderError } from '../payments/provider.js';
import type { CyclePricing } from './cycle-amount.js';
import { renewingSubscriptionsOf } from './overage-repository.js';

/**
 * Razorpay bills extra charges on a subscription as add-ons on its next invoice: once a usage
 * period has ended, the overage it owes is recorded pending (under the license's lock, so two runs
 * record it once) and put on the subscription at Razorpay, taxed as the plan's price is; the
 * `subscription.charged` that settles the next renewal itemises it and marks it billed. The sandbox
 * bills overage in its renewal's own charge instead.
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
      const licenseIds = await licensesOverAllowance(db, currentPeriodStart('day', now));
      const subscriptions = await renewingSubscriptionsOf(db, provider.name, licenseIds);
      let placed = 0;
      for (const subscription of subscriptions) {
        const licenseId = subscription.license_id;
        if (!licenseId) continue;
        const recorded = await db.transaction().execute(async (trx) => {
          await lockLicense(trx, licenseId);
          const license = await findLicenseById(trx, licenseId);
          if (!license) return [];
          const owed = await overageOwed(trx, license, subscription.created_at, now);
          const rows = await recordOverage(trx, {
            licenseId,
            subscriptionId: subscription.id,
            owed,
            at: now.toISOString(),
          });
          return rows.map((row, index) => ({ row, owed: owed[index]! }));
        });
        for (const { row, owed } of recorded) {
          try {
            const addonId = await gateway.addCharge(subscription.provider_subscription_id, {
              name: `${owed.featureName} over the allowance`,
              description: overageLineWords({
                ...owed,
                priceMinor: row.price_minor,
                perUnits: row.per_units,
              }),
              amount: pricing.overageGross([row.amount_minor]),
              currency: row.currency,
            });
            await setOverageAddon(db, row.id, addonId);
            placed += 1;
          } catch (error) {
            if (!(error instanceof PaymentProviderError)) throw error;
            // Not on the subscription: dropped, so the next run asks again.
            log.error({ detail: error.detail, subscription: subscription.id }, error.message);
            await dropUnplacedOverage(db, row.id);
          }
        }
      }
      return placed;
    },
  };
}
