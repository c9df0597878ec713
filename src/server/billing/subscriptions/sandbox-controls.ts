import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { SandboxCard, SubscriptionRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { SandboxPaymentProvider } from '../payments/sandbox-provider.js';
import { moveExpiryBack } from '../../licensing/index.js';
import { anchorEndingCycle } from './billing-periods.js';
import { inCardTrial } from './card-trials.js';
import type { SubscriptionCharges } from './charges.js';
import type { SubscriptionLifecycle } from './lifecycle.js';
import { declined, LIVE, sandboxOnly, subscriptionNotFound } from './refusals.js';
import {
  findLiveSubscriptionIdOfOrganisation,
  findSubscription,
  lockSubscription,
  updateSubscription,
} from './repository.js';
import { chargeSandboxRenewal } from './sandbox-billing.js';
import {
  SANDBOX_DECLINE_REASON,
  SANDBOX_DECLINING_METHOD,
  SANDBOX_PAYMENT_METHOD,
  sandboxPaymentId,
} from './sandbox-card.js';

const isSandbox = (provider: PaymentProvider): provider is SandboxPaymentProvider => provider.sandbox;

/**
 * What the sandbox lets a customer (or the CLI) do that a provider does by itself: authorise the
 * checkout, choose whether the card pays, pay what is outstanding, and bring the next renewal forward.
 */
export function createSandboxControls({
  db,
  clock,
  provider,
  charges,
  lifecycle,
}: {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  charges: SubscriptionCharges;
  lifecycle: SubscriptionLifecycle;
}) {
  /** The sandbox's card answer for a charge attempted now (the outstanding one, or the next). */
  async function chargeNow(subscription: SubscriptionRow): Promise<SubscriptionRow> {
    const outcome = await db.transaction().execute(async (trx) => {
      await lockSubscription(trx, subscription.id);
      const current = await findSubscription(trx, subscription.id);
      // Paid meanwhile (another tab, a retry): nothing is outstanding any more.
      if (!current || (current.status !== 'past_due' && current.status !== 'suspended')) return 'paid';
      return chargeSandboxRenewal(trx, charges, current);
    });
    const after = await findSubscription(db, subscription.id);
    if (!after) throw subscriptionNotFound();
    if (outcome !== 'paid') throw declined(SANDBOX_DECLINE_REASON);
    return after;
  }

  /**
   * Moves the subscription's dates and its license's expiry `shift` milliseconds back, for an end
   * (of the grace period, of a cancelled period) that should happen now. The paid period is
   * anchored where it now ends, so a charge that restores the subscription afterwards pays the
   * period from there, as a late renewal does (the anchor moved by the same milliseconds would
   * start it before or after: months differ in length).
   */
  async function moveBack(trx: DbOrTransaction, row: SubscriptionRow, shift: number): Promise<void> {
    if (shift <= 0) return;
    const back = (at: string | null) => (at === null ? null : new Date(Date.parse(at) - shift).toISOString());
    const end = back(row.current_period_end);
    const now = clock.now().toISOString();
    await updateSubscription(trx, row.id, {
      ...(end === null ? {} : anchorEndingCycle(end, row.cycles)),
      current_period_start: back(row.current_period_start),
      current_period_end: end,
      grace_ends_at: back(row.grace_ends_at),
      next_retry_at: back(row.next_retry_at),
      trial_ends_at: back(row.trial_ends_at),
      // A planned pause lasts its periods from where it now starts; a pause under way ends now.
      pause_resumes_at: back(row.pause_resumes_at),
      updated_at: now,
    });
    if (row.license_id) await moveExpiryBack(trx, row.license_id, shift, now);
  }

  /**
   * Makes the subscription's next event happen now. A renewal, or a retry of a failed one, is
   * charged now exactly as the lifecycle charges it when due: for the next cycle, whose period
   * starts where the paid one ends and counts calendar months from the anchor, so the paid period
   * and the license only ever move on. An end comes forward by moving the dates back to now.
   */
  async function happenNow(trx: DbOrTransaction, row: SubscriptionRow): Promise<void> {
    if (row.provider !== 'sandbox')
      throw conflict('not_sandbox_subscription', 'This subscription is billed by Razorpay, not the sandbox');
    const now = clock.now().toISOString();
    // A card trial's next event is its first charge: the trial ends now, and the first period
    // (charged now) starts now, as it would have at the trial's end.
    if (inCardTrial(row) && row.current_period_end !== null) {
      await moveBack(trx, row, Date.parse(row.current_period_end) - clock.now().getTime());
      const moved = await findSubscription(trx, row.id);
      if (moved) await chargeSandboxRenewal(trx, charges, moved);
      return;
    }
    const graceOver = row.grace_ends_at !== null && row.grace_ends_at <= now;
    const retryFirst =
      row.next_retry_at !== null && (row.grace_ends_at === null || row.next_retry_at < row.grace_ends_at);
    if (
      (row.status === 'active' && row.cancel_at_period_end === 0 && row.pause_resumes_at === null) ||
      (row.status === 'past_due' && !graceOver && retryFirst)
    ) {
      await chargeSandboxRenewal(trx, charges, row);
      return;
    }
    // What comes next: the paid period's end (a cancellation or a pause starts), the grace
    // period's end, or a pause's end (the subscription resumes and is billed).
    const end =
      row.status === 'active'
        ? row.current_period_end
        : row.status === 'past_due'
          ? row.grace_ends_at
          : row.status === 'paused'
            ? row.pause_resumes_at
            : null;
    if (end === null) throw conflict('nothing_due', `A ${row.status} subscription has no next renewal`);
    await moveBack(trx, row, Date.parse(end) - clock.now().getTime());
    await lifecycle.advance(row.id, trx);
  }

  return {
    /** The sandbox's stand-in for Checkout authorising a subscription: its answer, or a decline. */
    async completeCheckout(row: SubscriptionRow, outcome: 'pay' | 'decline') {
      if (!isSandbox(provider)) throw sandboxOnly();
      if (row.status !== 'pending')
        throw conflict('subscription_already_started', 'This subscription is already paid');
      // Two checkouts opened for one organisation: once one is paid, the other would be a second license.
      if (outcome === 'pay' && row.organisation_id !== null) {
        const live = await findLiveSubscriptionIdOfOrganisation(db, row.organisation_id);
        if (live)
          throw conflict(
            'organisation_already_subscribed',
            'This organization has a subscription already (paid in another checkout): buy more seats on its page instead',
          );
      }
      if (outcome === 'decline') {
        await db.transaction().execute((trx) =>
          charges.fail(trx, {
            subscriptionId: row.id,
            cycle: 1,
            providerPaymentId: sandboxPaymentId(),
            reason: SANDBOX_DECLINE_REASON,
          }),
        );
        return {
          error: { code: 'BAD_REQUEST_ERROR', description: SANDBOX_DECLINE_REASON, reason: 'payment_failed' },
        };
      }
      const paymentId = sandboxPaymentId();
      return {
        razorpay_subscription_id: row.provider_subscription_id,
        razorpay_payment_id: paymentId,
        razorpay_signature: provider.signSubscription(row.provider_subscription_id, paymentId),
      };
    },

    /**
     * Sandbox: chooses whether the card on file pays. A subscription past due or suspended is
     * charged at once with the new card, as a provider does when the card is updated.
     */
    async setCard(row: SubscriptionRow, card: SandboxCard): Promise<SubscriptionRow> {
      if (!isSandbox(provider)) throw sandboxOnly();
      if (!LIVE.includes(row.status))
        throw conflict('subscription_ended', 'This subscription has already ended');
      const updated = await updateSubscription(db, row.id, {
        sandbox_card: card,
        payment_method: card === 'succeeds' ? SANDBOX_PAYMENT_METHOD : SANDBOX_DECLINING_METHOD,
        updated_at: clock.now().toISOString(),
      });
      if (!updated) throw subscriptionNotFound();
      if (card === 'succeeds' && (updated.status === 'past_due' || updated.status === 'suspended'))
        return chargeNow(updated);
      return updated;
    },

    /** Pays what is outstanding now (past due or suspended) instead of waiting for the next retry. */
    async payNow(row: SubscriptionRow): Promise<SubscriptionRow> {
      if (!isSandbox(provider))
        throw conflict(
          'retry_by_provider',
          'Razorpay retries the charge itself; update the card to pay sooner',
        );
      if (row.status !== 'past_due' && row.status !== 'suspended')
        throw conflict('nothing_due', 'Nothing is outstanding on this subscription');
      return chargeNow(row);
    },

    /**
     * Sandbox: the subscription's next event (renewal, retry, end of grace, end of a cancelled
     * period) now, so the whole cycle can be shown in minutes. One transaction under the
     * subscription's lock, as a real renewal and a cancellation take it: whatever another request
     * (on this server or another) does to the subscription comes wholly before or after, and a
     * refusal keeps nothing, not even the card given with it.
     */
    async advance(found: SubscriptionRow, card?: SandboxCard): Promise<SubscriptionRow> {
      if (!isSandbox(provider)) throw sandboxOnly();
      return db.transaction().execute(async (trx) => {
        await lockSubscription(trx, found.id);
        const current = await findSubscription(trx, found.id);
        if (!current) throw subscriptionNotFound();
        const row = card
          ? ((await updateSubscription(trx, current.id, {
              sandbox_card: card,
              payment_method: card === 'succeeds' ? SANDBOX_PAYMENT_METHOD : SANDBOX_DECLINING_METHOD,
            })) ?? current)
          : current;
        await happenNow(trx, row);
        const after = await findSubscription(trx, row.id);
        if (!after) throw subscriptionNotFound();
        return after;
      });
    },
  };
}

export type SandboxControls = ReturnType<typeof createSandboxControls>;
