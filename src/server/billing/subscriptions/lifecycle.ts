import type { FastifyBaseLogger } from 'fastify';
import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, SubscriptionRow } from '../../platform/db/tables.js';
import { holdUntilRenewalReported, suspendForNonPayment } from '../../licensing/index.js';
import type { SubscriptionCharges } from './charges.js';
import { dueSubscriptions, findSubscription, lockSubscription, updateSubscription } from './repository.js';
import { chargeSandboxRenewal } from './sandbox-billing.js';
import { resumeNow, startPause } from './pause.js';

/** Subscriptions handled per batch; the next batch follows at once while work is due. */
const BATCH = 100;

/** What else happens when time moves a subscription on: mails. Runs in the same transaction. */
export interface LifecycleEffects {
  suspended?(
    trx: DbOrTransaction,
    subscription: SubscriptionRow,
    license: LicenseRow | undefined,
  ): Promise<void>;
  ended?(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<void>;
  /** The paid period ended with a pause asked for: the subscription and its license are paused. */
  paused?(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<void>;
  /** A pause ended (at its end, or `early` by the customer or an administrator). */
  resumed?(trx: DbOrTransaction, subscription: SubscriptionRow, early: boolean): Promise<void>;
}

/**
 * The work time brings to subscriptions: sandbox renewals and retries fall due, a provider's renewal
 * is awaited, grace periods run out (the license is suspended), and subscriptions cancelled at
 * period end end. Every step is a
 * conditional change in its own transaction, so running it twice, or on two servers at once,
 * does each thing once; whatever fell due while no server ran is done on the next run.
 */
export function createSubscriptionLifecycle({
  db,
  clock,
  charges,
  graceDays,
  log,
  effects = {},
  resumeAtProvider,
}: {
  db: Db;
  clock: Clock;
  charges: SubscriptionCharges;
  /** Resumes a paused subscription at its provider (Razorpay), before it resumes here. */
  resumeAtProvider?: (subscription: SubscriptionRow) => Promise<void>;
  /** SUBSCRIPTION_GRACE_DAYS: how long a license outlives its period while the renewal is unpaid. */
  graceDays: number;
  log: FastifyBaseLogger;
  effects?: LifecycleEffects;
}) {
  /**
   * A provider's renewal is charged when the period ends and reported by a webhook some time later:
   * until then (at most the grace period) the license stays valid, as it would after a failed charge,
   * instead of reading expired to the app for the minutes or hours the report takes.
   */
  async function awaitProviderRenewal(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<boolean> {
    if (subscription.current_period_end === null) return false;
    const now = clock.now().toISOString();
    const graceEndsAt = utc(subscription.current_period_end).add(graceDays, 'day').toISOString();
    const moved = await updateSubscription(
      trx,
      subscription.id,
      { grace_ends_at: graceEndsAt, updated_at: now },
      { version: subscription.version, statuses: ['active'] },
    );
    if (!moved) return false;
    if (subscription.license_id)
      await holdUntilRenewalReported(trx, subscription.license_id, graceEndsAt, now);
    return true;
  }

  async function suspendUnpaid(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<boolean> {
    const now = clock.now().toISOString();
    const moved = await updateSubscription(
      trx,
      subscription.id,
      { status: 'suspended', next_retry_at: null, updated_at: now },
      { version: subscription.version },
    );
    if (!moved) return false;
    const license = subscription.license_id
      ? await suspendForNonPayment(trx, subscription.license_id, subscription.grace_ends_at ?? now, now)
      : undefined;
    await effects.suspended?.(trx, moved, license);
    return true;
  }

  async function endCancelled(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<boolean> {
    const moved = await updateSubscription(
      trx,
      subscription.id,
      {
        status: 'cancelled',
        ended_at: subscription.current_period_end,
        updated_at: clock.now().toISOString(),
      },
      { version: subscription.version },
    );
    if (!moved) return false;
    await effects.ended?.(trx, moved);
    return true;
  }

  /**
   * Resumes a paused subscription now (its pause is over, or it is resumed early), and takes the
   * step its new period, due at once, needs: the sandbox charges it, a provider's is awaited.
   */
  async function resumePaused(
    trx: DbOrTransaction,
    subscription: SubscriptionRow,
    early: boolean,
  ): Promise<SubscriptionRow | undefined> {
    const resumed = await resumeNow(trx, subscription, clock.now().toISOString());
    if (!resumed) return undefined;
    await effects.resumed?.(trx, resumed, early);
    if (resumed.provider === 'sandbox') await chargeSandboxRenewal(trx, charges, resumed);
    else await awaitProviderRenewal(trx, resumed);
    return findSubscription(trx, resumed.id);
  }

  /** Whether the subscription's pause is over now. */
  const pauseOver = (subscription: SubscriptionRow, now: string) =>
    subscription.status === 'paused' &&
    subscription.pause_resumes_at !== null &&
    subscription.pause_resumes_at <= now;

  /**
   * Does what is due for one subscription, read again under its lock inside the transaction: the
   * caller's when given (the sandbox moves the dates and lets them fall due in one), or its own.
   */
  async function advance(id: string, within?: DbOrTransaction): Promise<boolean> {
    // A pause over on Razorpay: Razorpay resumes first, outside the transaction (a call that
    // fails leaves it paused here too, and the next run asks again).
    if (!within && resumeAtProvider) {
      const before = await findSubscription(db, id);
      if (before && before.provider !== 'sandbox' && pauseOver(before, clock.now().toISOString()))
        await resumeAtProvider(before);
    }
    const step = async (trx: DbOrTransaction) => {
      await lockSubscription(trx, id);
      const subscription = await findSubscription(trx, id);
      if (!subscription) return false;
      const now = clock.now().toISOString();
      if (pauseOver(subscription, now)) return (await resumePaused(trx, subscription, false)) !== undefined;
      if (
        subscription.status === 'past_due' &&
        subscription.grace_ends_at !== null &&
        subscription.grace_ends_at <= now
      )
        return suspendUnpaid(trx, subscription);
      const periodOver = subscription.current_period_end !== null && subscription.current_period_end <= now;
      if (subscription.status === 'active' && periodOver && subscription.cancel_at_period_end === 1)
        return endCancelled(trx, subscription);
      if (subscription.status === 'active' && periodOver && subscription.pause_resumes_at !== null)
        return startPause(trx, subscription, now, { started: effects.paused });
      if (subscription.provider !== 'sandbox')
        return subscription.status === 'active' && periodOver && subscription.grace_ends_at === null
          ? awaitProviderRenewal(trx, subscription)
          : false;
      const retryDue =
        subscription.status === 'past_due' &&
        subscription.next_retry_at !== null &&
        subscription.next_retry_at <= now;
      if ((subscription.status === 'active' && periodOver) || retryDue)
        return (await chargeSandboxRenewal(trx, charges, subscription)) !== 'unchanged';
      return false;
    };
    return within ? step(within) : db.transaction().execute(step);
  }

  return {
    advance,
    resumePaused,
    /** One pass over everything due now; answers how many subscriptions moved on. */
    async runDue(): Promise<number> {
      let moved = 0;
      const seen = new Set<string>();
      for (;;) {
        const due = (await dueSubscriptions(db, clock.now().toISOString(), BATCH)).filter(
          (row) => !seen.has(row.id),
        );
        if (due.length === 0) return moved;
        for (const row of due) {
          seen.add(row.id);
          try {
            if (await advance(row.id)) moved++;
          } catch (error) {
            // One subscription's trouble must not stop the others; it is tried again next run.
            log.error({ err: error, subscriptionId: row.id }, 'subscription lifecycle step failed');
          }
        }
      }
    },
  };
}

export type SubscriptionLifecycle = ReturnType<typeof createSubscriptionLifecycle>;
