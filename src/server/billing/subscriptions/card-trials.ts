import type { FastifyBaseLogger } from 'fastify';
import { utc } from '../../../shared/dates.js';
import { formatDate } from '../../platform/mail/formatting.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { CouponRow, LicenseRow, PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { conflict, type HttpError } from '../../platform/http-error.js';
import { findUserById } from '../../identity/index.js';
import { cardTrialRefused, cardTrialRefusal, startCardTrial } from '../../licensing/index.js';
import type { BillingEvents } from '../events.js';
import { liveTwinOf } from './duplicates.js';
import type { ProviderClosing } from './provider-closing.js';
import { findSubscription, lockSubscription, updateSubscription } from './repository.js';
import { SANDBOX_PAYMENT_METHOD } from './sandbox-card.js';

/**
 * A card trial still running: authorised, its first charge not made yet. Cancelling it costs
 * nothing and leaves the trial license to its end; a plan change waits for the first charge.
 */
export const inCardTrial = (row: Pick<SubscriptionRow, 'trial_ends_at' | 'cycles' | 'status'>): boolean =>
  row.trial_ends_at !== null && row.cycles === 0 && row.status === 'active';

/** When a card trial of the plan checked out now ends: its first charge. */
export const cardTrialEnd = (plan: Pick<PlanRow, 'trial_days'>, now: Date): string =>
  utc(now).add(plan.trial_days, 'day').toISOString();

/** A coupon that takes something off the first charge only cannot ride a Razorpay plan's later charge. */
export const couponNotWithTrial = (coupon: Pick<CouponRow, 'code'>) =>
  conflict(
    'coupon_not_with_trial',
    `Coupon ${coupon.code} is for the first charge only and cannot be combined with a free trial: start the trial without it, or subscribe now with it.`,
  );

/** A plan change asked for while the trial runs. */
export const trialPlanChangeRefused = (row: Pick<SubscriptionRow, 'trial_ends_at'>) =>
  conflict(
    'subscription_in_trial',
    `This subscription is on its free trial until ${formatDate(row.trial_ends_at ?? '')}: cancel it (nothing is charged) and start the plan you want, or change the plan after its first charge.`,
  );

/** The reason of the refund of a charge made for a card trial that had been cancelled. */
export const cancelledTrialRefundReason = (planName: string) =>
  `The free trial of ${planName} was canceled before its first charge: refunded in full`;

export const cancelledTrialRefundId = (paymentId: string) => `cancelled-trial-${paymentId}`;

/** The outcome of starting a card trial: its subscription, active, and the trial license. */
export interface StartedCardTrial {
  subscription: SubscriptionRow;
  license: LicenseRow;
}

/** Cancels a trial subscription that cannot start, before any charge. */
async function cancelUnstarted(trx: DbOrTransaction, clock: Clock, row: SubscriptionRow): Promise<void> {
  const now = clock.now().toISOString();
  await updateSubscription(
    trx,
    row.id,
    { status: 'cancelled', ended_at: now, cancel_requested_at: now, updated_at: now },
    { statuses: ['pending'] },
  );
}

/**
 * Starts the trial of a pending subscription in the caller's transaction (which holds its lock):
 * the started subscription and license, the refusal when the buyer may not have it, or
 * undefined when there is nothing to start (started already, canceled, not a trial).
 */
export async function startCardTrialLocked(
  trx: DbOrTransaction,
  { clock, events }: { clock: Clock; events: BillingEvents },
  row: SubscriptionRow,
  plan: PlanRow,
): Promise<StartedCardTrial | { refusal: HttpError } | undefined> {
  if (row.status !== 'pending' || row.trial_ends_at === null || row.user_id === null) return undefined;
  const user = await findUserById(trx, row.user_id);
  if (!user) return undefined;
  const buyer = { user, hardwareId: row.trial_hardware_id };
  const twin = await liveTwinOf(trx, row);
  const refusal =
    (row.trial_ends_at <= clock.now().toISOString()
      ? conflict(
          'trial_checkout_expired',
          `This checkout was opened so long ago that its trial would have ended already: start the trial of ${plan.name} again.`,
        )
      : undefined) ??
    (await cardTrialRefusal(trx, clock, buyer, plan)) ??
    (twin
      ? conflict(
          'already_subscribed',
          `You already subscribe to ${plan.name}, so this trial was not started and nothing is charged.`,
        )
      : undefined);
  if (refusal) {
    await cancelUnstarted(trx, clock, row);
    return { refusal };
  }
  const license = await startCardTrial(trx, clock, events, {
    ...buyer,
    plan,
    subscriptionId: row.id,
    endsAt: row.trial_ends_at,
  });
  const now = clock.now().toISOString();
  // Cycle 1 (the first charge) pays the period from the trial's end; until then the current
  // period is the trial, and the lifecycle charges (or awaits Razorpay's charge) at its end.
  const subscription = await updateSubscription(
    trx,
    row.id,
    {
      status: 'active',
      anchor_at: row.trial_ends_at,
      anchor_cycle: 0,
      current_period_start: now,
      current_period_end: row.trial_ends_at,
      ...(row.provider === 'sandbox' ? { payment_method: SANDBOX_PAYMENT_METHOD } : {}),
      updated_at: now,
    },
    { statuses: ['pending'] },
  );
  if (!subscription) throw new Error(`subscription ${row.id} changed under its lock`);
  return { subscription, license };
}

/**
 * Starting card trials once the card is authorised (Checkout's verified answer, or Razorpay's
 * `subscription.authenticated` when the page never came back): in one transaction under the
 * subscription's lock, the trial license is issued through licensing's card-trial start, and the
 * subscription turns active with its first period (the first charge) anchored at the trial's end.
 * Whichever of the two reports comes first starts it; the other finds it started. A buyer who
 * meanwhile had a trial of the plan (another checkout, a trial without a card, on another server)
 * or started another subscription to it is refused: the subscription is canceled, and at Razorpay
 * too, before anything is charged.
 */
export function createCardTrials({
  db,
  clock,
  events,
  closing,
  log,
}: {
  db: Db;
  clock: Clock;
  /** Announces the trial license (licensing's events, which billing announces for what it grants). */
  events: BillingEvents;
  closing: Pick<ProviderClosing, 'close'>;
  log: FastifyBaseLogger;
}) {
  /** Tells Razorpay at once that a refused trial charges nothing (or the scheduler's next run does). */
  async function closeRefused(row: SubscriptionRow): Promise<void> {
    await closing
      .close(row.id)
      .catch((error: unknown) =>
        log.warn({ err: error, subscriptionId: row.id }, 'closing a refused trial failed; retried later'),
      );
  }

  return {
    /**
     * Checkout's verified answer for a trial subscription: starts the trial (once), and answers
     * the subscription as it is afterwards; a refusal is thrown once the subscription is canceled.
     */
    async start(row: SubscriptionRow, plan: PlanRow): Promise<SubscriptionRow> {
      let outcome: Awaited<ReturnType<typeof startCardTrialLocked>>;
      try {
        outcome = await db.transaction().execute(async (trx) => {
          await lockSubscription(trx, row.id);
          const current = await findSubscription(trx, row.id);
          return current ? startCardTrialLocked(trx, { clock, events }, current, plan) : undefined;
        });
      } catch (error) {
        // Another trial of this account, person or machine committed first (on any server): its
        // refusal, read now that it is there.
        if (!isUniqueViolation(error)) throw error;
        const refusal = await db.transaction().execute(async (trx) => {
          await lockSubscription(trx, row.id);
          const current = await findSubscription(trx, row.id);
          if (!current || current.status !== 'pending') return undefined;
          const user = current.user_id ? await findUserById(trx, current.user_id) : undefined;
          const why = user
            ? await cardTrialRefusal(trx, clock, { user, hardwareId: current.trial_hardware_id }, plan)
            : undefined;
          await cancelUnstarted(trx, clock, current);
          return why ?? cardTrialRefused(plan);
        });
        outcome = refusal ? { refusal } : undefined;
      }
      if (outcome && 'refusal' in outcome) {
        await closeRefused(row);
        throw outcome.refusal;
      }
      const after = await findSubscription(db, row.id);
      if (!after) throw new Error(`subscription ${row.id} is gone`);
      return after;
    },
  };
}

export type CardTrials = ReturnType<typeof createCardTrials>;
