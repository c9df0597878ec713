import { utc } from '../../../shared/dates.js';
import type { SubscriptionPause } from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { PlanRow, SubscriptionRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import { endLicensePause, pauseWithSubscription } from '../../licensing/index.js';
import { findPlanIn } from '../../catalogue/index.js';
import { PaymentProviderError } from '../payments/provider.js';
import type { createProviderSubscriptions } from './provider-plans.js';
import { findSubscription, lockSubscription, updateSubscription } from './repository.js';
import { inCardTrial } from './card-trials.js';

// A pause (issue 34, item 9): asked for while the subscription is active, it starts when the paid
// period ends (the license is valid until then) and lasts `pause_periods` billing periods. While
// paused nothing is charged and the license reads `paused`; at `pause_resumes_at` (or earlier, when
// the customer or an administrator resumes it) a new period starts and is billed at once.
// On Razorpay the provider is paused when the pause is asked for (Razorpay pauses "now" only, and a
// pause charges nothing: the paid period runs on here) and resumed when the pause ends.

type Providers = ReturnType<typeof createProviderSubscriptions>;

/** What else happens when a pause is asked for or withdrawn: the announcement (and so the mail). */
export interface PauseEffects {
  paused?(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<void>;
  /** A pause asked for and not started yet was withdrawn: the subscription renews as before. */
  withdrawn?(trx: DbOrTransaction, subscription: SubscriptionRow): Promise<void>;
}

/** The pause on the subscription's view: asked for (still active) or under way (paused). */
export function pauseOf(row: SubscriptionRow): SubscriptionPause | null {
  if (row.pause_resumes_at === null || row.pause_periods === null || row.pause_requested_at === null)
    return null;
  if (row.status !== 'active' && row.status !== 'paused') return null;
  // A cancellation at the period's end outruns the pause (the lifecycle ends the subscription
  // then, paused never); withdrawing the cancellation brings the pause asked for back.
  if (row.status === 'active' && row.cancel_at_period_end === 1) return null;
  return {
    periods: row.pause_periods,
    requested_at: row.pause_requested_at,
    starts_at: startOf(row),
    resumes_at: row.pause_resumes_at,
  };
}

/** When the pause starts: the end of the paid period it was asked in. */
const startOf = (row: SubscriptionRow) => row.current_period_end ?? row.pause_requested_at ?? '';

/** Why this subscription cannot be paused now, as a 409 that says what to do; none when it can. */
function pauseRefusal(row: SubscriptionRow, now: string) {
  switch (row.status) {
    case 'paused':
      return conflict(
        'subscription_already_paused',
        'This subscription is already paused. Resume it first to pause it for a different time.',
      );
    case 'past_due':
    case 'suspended':
      return conflict(
        'subscription_not_pausable',
        'A subscription with an unpaid charge cannot be paused: pay what is outstanding first.',
      );
    case 'cancelled':
      return conflict('subscription_ended', 'This subscription has already ended');
    case 'pending':
      return conflict('subscription_not_pausable', 'This subscription has not started: it cannot be paused.');
    case 'active':
      break;
  }
  if (row.pause_resumes_at !== null)
    return conflict(
      'pause_already_requested',
      'A pause is already planned for this subscription. Resume it first to pause it for a different time.',
    );
  if (row.cancel_at_period_end === 1)
    return conflict(
      'subscription_not_pausable',
      'This subscription is canceled at the end of its period: resume it before pausing it.',
    );
  if (inCardTrial(row) || row.current_period_end === null)
    return conflict(
      'subscription_not_pausable',
      'A subscription on its free trial cannot be paused: it can be paused once its first period is paid.',
    );
  if (row.current_period_end <= now)
    return conflict(
      'subscription_not_pausable',
      'This subscription is being renewed right now: try again in a moment.',
    );
  return undefined;
}

const recurringInterval = (plan: PlanRow) => (plan.billing_interval === 'year' ? 'year' : 'month');

/** Customers' and administrators' pauses, and their early end; the scheduler's half is in lifecycle.ts. */
export function createPauses({
  db,
  clock,
  providers,
  effects = {},
}: {
  db: Db;
  clock: Clock;
  providers: Providers;
  effects?: PauseEffects;
}) {
  /**
   * Asks the provider to pause or resume. A call whose answer was lost may have been made: asked
   * again, Razorpay refuses (already paused, or not paused), so its status then says whether it was.
   */
  async function atProvider(row: SubscriptionRow, action: 'pause' | 'resume'): Promise<void> {
    if (row.provider === 'sandbox') return;
    await providers.call(async (gateway) => {
      try {
        if (action === 'pause') await gateway.pauseSubscription(row.provider_subscription_id);
        else await gateway.resumeSubscription(row.provider_subscription_id);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        const status = await gateway.statusOf(row.provider_subscription_id);
        if (status !== (action === 'pause' ? 'paused' : 'active')) throw error;
      }
    });
  }

  /**
   * Pauses for `periods` billing periods from the end of the paid period. The pause is claimed on
   * the row first (of two at once, one claims it; the other is refused), then the provider is
   * asked; if it refuses, the claim is taken back and nothing was paused.
   */
  async function request(
    row: SubscriptionRow,
    periods: number,
    audit?: (trx: DbOrTransaction, paused: SubscriptionRow) => Promise<void>,
  ): Promise<SubscriptionRow> {
    const now = clock.now().toISOString();
    const refused = pauseRefusal(row, now);
    if (refused) throw refused;
    const plan = await findPlanIn(db, row.plan_id, row.currency);
    if (!plan) throw new Error(`plan ${row.plan_id} of subscription ${row.id} is gone`);
    const claim = async (trx: DbOrTransaction) => {
      await lockSubscription(trx, row.id);
      const current = await findSubscription(trx, row.id);
      if (!current) return undefined;
      const again = pauseRefusal(current, now);
      if (again) throw again;
      const start = current.current_period_end ?? now;
      return updateSubscription(
        trx,
        row.id,
        {
          pause_periods: periods,
          pause_requested_at: now,
          pause_resumes_at: utc(start).add(periods, recurringInterval(plan)).toISOString(),
          updated_at: now,
        },
        { version: current.version, statuses: ['active'] },
      );
    };
    const announce = async (trx: DbOrTransaction, claimed: SubscriptionRow) => {
      await effects.paused?.(trx, claimed);
      await audit?.(trx, claimed);
    };
    if (row.provider === 'sandbox')
      return db.transaction().execute(async (trx) => {
        const claimed = await claim(trx);
        if (!claimed) throw changedMeanwhile();
        await announce(trx, claimed);
        return claimed;
      });
    const claimed = await db.transaction().execute(claim);
    if (!claimed) throw changedMeanwhile();
    try {
      await atProvider(claimed, 'pause');
    } catch (error) {
      await updateSubscription(
        db,
        row.id,
        { pause_periods: null, pause_requested_at: null, pause_resumes_at: null, updated_at: now },
        { version: claimed.version },
      );
      throw error;
    }
    return db.transaction().execute(async (trx) => {
      await lockSubscription(trx, row.id);
      const current = await findSubscription(trx, row.id);
      if (!current) throw changedMeanwhile();
      await announce(trx, current);
      return current;
    });
  }

  return {
    request,
    atProvider,

    /**
     * Ends a pause now: one still to come is withdrawn (the paid period runs on and renews as
     * before); one under way resumes, its next period starting and billed now (`resumePaused`).
     */
    async end(
      row: SubscriptionRow,
      resumePaused: (trx: DbOrTransaction, paused: SubscriptionRow) => Promise<SubscriptionRow | undefined>,
      audit?: (trx: DbOrTransaction, resumed: SubscriptionRow) => Promise<void>,
    ): Promise<SubscriptionRow> {
      if (row.status !== 'paused' && !(row.status === 'active' && row.pause_resumes_at !== null))
        throw conflict(
          'subscription_not_paused',
          'This subscription is not paused, and no pause is planned.',
        );
      await atProvider(row, 'resume');
      const moved = await db.transaction().execute(async (trx) => {
        await lockSubscription(trx, row.id);
        const current = await findSubscription(trx, row.id);
        if (!current) return undefined;
        let resumed: SubscriptionRow | undefined;
        if (current.status === 'paused') resumed = await resumePaused(trx, current);
        else if (current.status === 'active' && current.pause_resumes_at !== null) {
          resumed = await updateSubscription(
            trx,
            row.id,
            {
              pause_periods: null,
              pause_requested_at: null,
              pause_resumes_at: null,
              updated_at: clock.now().toISOString(),
            },
            { version: current.version },
          );
          if (resumed) await effects.withdrawn?.(trx, resumed);
        }
        if (resumed) await audit?.(trx, resumed);
        return resumed;
      });
      if (!moved)
        throw conflict(
          'subscription_not_paused',
          'This subscription is not paused, and no pause is planned.',
        );
      return moved;
    },
  };
}

const changedMeanwhile = () =>
  conflict('subscription_changed', 'The subscription changed meanwhile; look again');

/**
 * The paid period of a subscription with a pause asked for has ended: it is paused, and its
 * license reads `paused` until the pause ends. Answers whether it moved (not if something else did).
 */
export async function startPause(
  trx: DbOrTransaction,
  subscription: SubscriptionRow,
  now: string,
  effects: { started?(trx: DbOrTransaction, paused: SubscriptionRow): Promise<void> } = {},
): Promise<boolean> {
  if (subscription.pause_resumes_at === null) return false;
  const paused = await updateSubscription(
    trx,
    subscription.id,
    { status: 'paused', grace_ends_at: null, next_retry_at: null, updated_at: now },
    { version: subscription.version, statuses: ['active'] },
  );
  if (!paused) return false;
  if (paused.license_id)
    await pauseWithSubscription(trx, paused.license_id, subscription.pause_resumes_at, now);
  await effects.started?.(trx, paused);
  return true;
}

/**
 * Resumes a paused subscription now: a new period starts now (the anchor moves to it, so the
 * periods after run from now) and falls due at once, so the caller's next step charges it (the
 * sandbox) or awaits the provider's charge (the license held through the grace period).
 */
export async function resumeNow(
  trx: DbOrTransaction,
  subscription: SubscriptionRow,
  now: string,
): Promise<SubscriptionRow | undefined> {
  const resumed = await updateSubscription(
    trx,
    subscription.id,
    {
      status: 'active',
      anchor_at: now,
      anchor_cycle: subscription.cycles,
      current_period_end: now,
      grace_ends_at: null,
      next_retry_at: null,
      pause_periods: null,
      pause_requested_at: null,
      pause_resumes_at: null,
      updated_at: now,
    },
    { version: subscription.version, statuses: ['paused'] },
  );
  if (resumed?.license_id) await endLicensePause(trx, resumed.license_id, now, now);
  return resumed;
}
