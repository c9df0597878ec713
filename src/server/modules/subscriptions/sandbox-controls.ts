import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import type { SandboxCard, SubscriptionRow } from '../../db/tables.js';
import { conflict } from '../../http-error.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { SandboxPaymentProvider } from '../payments/sandbox-provider.js';
import { findLicenseById, updateLicense } from '../licenses/repository.js';
import type { SubscriptionCharges } from './charges.js';
import type { SubscriptionLifecycle } from './lifecycle.js';
import { declined, LIVE, sandboxOnly, subscriptionNotFound } from './refusals.js';
import { findSubscription, lockSubscription, updateSubscription } from './repository.js';
import {
  chargeSandboxRenewal,
  SANDBOX_DECLINE_REASON,
  SANDBOX_DECLINING_METHOD,
  SANDBOX_PAYMENT_METHOD,
  sandboxPaymentId,
} from './sandbox-billing.js';

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

  return {
    /** The sandbox's stand-in for Checkout authorising a subscription: its answer, or a decline. */
    async completeCheckout(row: SubscriptionRow, outcome: 'pay' | 'decline') {
      if (!isSandbox(provider)) throw sandboxOnly();
      if (row.status !== 'pending')
        throw conflict('subscription_already_started', 'This subscription is already paid');
      // Two checkouts opened for one organisation: once one is paid, the other would be a second license.
      if (outcome === 'pay' && row.organisation_id !== null) {
        const live = await db
          .selectFrom('subscriptions')
          .select('id')
          .where('organisation_id', '=', row.organisation_id)
          .where('status', 'in', [...LIVE])
          .executeTakeFirst();
        if (live)
          throw conflict(
            'organisation_already_subscribed',
            'This organisation has a subscription already (paid in another checkout): buy more seats on its page instead',
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
     * Sandbox time travel: moves the subscription's dates back so that its next event (renewal,
     * retry, end of grace, end of a cancelled period) is now, then lets it happen. The whole cycle
     * can so be shown in minutes; the dates of earlier charges stay as they were.
     */
    async advance(found: SubscriptionRow, card?: SandboxCard): Promise<SubscriptionRow> {
      if (!isSandbox(provider)) throw sandboxOnly();
      const row = card
        ? ((await updateSubscription(db, found.id, {
            sandbox_card: card,
            payment_method: card === 'succeeds' ? SANDBOX_PAYMENT_METHOD : SANDBOX_DECLINING_METHOD,
          })) ?? found)
        : found;
      const next =
        row.status === 'active'
          ? row.current_period_end
          : row.status === 'past_due'
            ? [row.next_retry_at, row.grace_ends_at].filter((at): at is string => at !== null).sort()[0]
            : undefined;
      if (!next) throw conflict('nothing_due', `A ${row.status} subscription has no next renewal`);
      const shift = Date.parse(next) - clock.now().getTime();
      if (shift > 0) {
        const back = (at: string | null) =>
          at === null ? null : new Date(Date.parse(at) - shift).toISOString();
        await db.transaction().execute(async (trx) => {
          await updateSubscription(trx, row.id, {
            anchor_at: back(row.anchor_at),
            current_period_start: back(row.current_period_start),
            current_period_end: back(row.current_period_end),
            grace_ends_at: back(row.grace_ends_at),
            next_retry_at: back(row.next_retry_at),
          });
          const license = row.license_id ? await findLicenseById(trx, row.license_id) : undefined;
          if (license?.expires_at)
            await updateLicense(trx, license.id, {
              expires_at: back(license.expires_at),
              updated_at: clock.now().toISOString(),
            });
        });
      }
      await lifecycle.advance(row.id);
      const after = await findSubscription(db, row.id);
      if (!after) throw subscriptionNotFound();
      return after;
    },
  };
}

export type SandboxControls = ReturnType<typeof createSandboxControls>;
