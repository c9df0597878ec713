import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import type { ProviderSubscriptions } from './provider-plans.js';
import { dueAtProvider, findSubscription, paidChargeOfPeriod, updateSubscription } from './repository.js';

/**
 * How long before a period ends Razorpay is told to stop a subscription cancelled at period end.
 * Razorpay charges a renewal when the period ends; until a day before, the cancellation stays ours
 * alone, so the customer can take it back (Razorpay cannot undo a cancellation).
 */
export const PROVIDER_STOP_NOTICE_MS = 24 * 60 * 60 * 1000;

/** Razorpay's statuses of a subscription that charges no more. */
const ENDED_AT_PROVIDER = new Set(['cancelled', 'completed', 'expired']);

/** Refunds part of a payment once under `refundId`, however often asked (the invoices area's refunds). */
export type RefundCredit = (input: {
  paymentId: string;
  amountMinor: number;
  reason: string;
  refundId: string;
}) => Promise<void>;

/**
 * Reserves such a refund in the caller's transaction, so it commits with the change that owes it;
 * `RefundCredit` under the same `refundId` asks the provider afterwards. Answers the amount reserved.
 */
export type ReserveCredit = (
  trx: DbOrTransaction,
  input: { paymentId: string; amountMinor: number; reason: string; refundId: string },
) => Promise<number>;

/** Whether a subscription cancelled at period end is close enough to that end for Razorpay to be told. */
export const withinStopNotice = (row: Pick<SubscriptionRow, 'current_period_end'>, now: Date): boolean =>
  row.current_period_end !== null &&
  Date.parse(row.current_period_end) - now.getTime() <= PROVIDER_STOP_NOTICE_MS;

/**
 * Telling Razorpay that a subscription charges no more: one cancelled at period end (a day before
 * that end), one that ended, and one replaced by a plan change (whose unused credit is refunded
 * too). Run by the scheduler until done; each step is idempotent, so a crash or Razorpay's refusal
 * delays it but repeats nothing.
 */
export function createProviderClosing({
  db,
  clock,
  providers,
  refundCredit,
  log,
}: {
  db: Db;
  clock: Clock;
  providers: ProviderSubscriptions;
  refundCredit: RefundCredit;
  log: FastifyBaseLogger;
}) {
  /** Cancels at Razorpay now; one Razorpay already ended (or we did, before a crash) counts as done. */
  async function cancelAtProvider(row: SubscriptionRow): Promise<void> {
    try {
      await providers.call((gateway) => gateway.cancelSubscription(row.provider_subscription_id, false));
    } catch (error) {
      const status = await providers.call((gateway) => gateway.statusOf(row.provider_subscription_id));
      if (!ENDED_AT_PROVIDER.has(status)) throw error;
    }
  }

  function due(row: SubscriptionRow): boolean {
    if (row.provider === 'sandbox' || row.provider_closed_at !== null) return false;
    if (row.closeout_refund_minor !== null) return true;
    if (row.status === 'cancelled') return row.cancel_requested_at !== null;
    return row.status === 'active' && row.cancel_at_period_end === 1 && withinStopNotice(row, clock.now());
  }

  /** Closes one subscription at its provider if it is due; answers whether it did. */
  async function close(id: string): Promise<boolean> {
    const row = await findSubscription(db, id);
    if (!row || !due(row)) return false;
    await cancelAtProvider(row);
    if (row.closeout_refund_minor !== null && row.closeout_refund_minor > 0 && row.current_period_end) {
      const paid = await paidChargeOfPeriod(db, row.id, row.current_period_end);
      if (paid)
        await refundCredit({
          paymentId: paid.id,
          amountMinor: row.closeout_refund_minor,
          reason: 'Unused part of the period, credited on a plan change',
          // One refund per replaced subscription, however many times closing is tried.
          refundId: `plan-change-${row.id}`,
        });
    }
    await updateSubscription(db, row.id, { provider_closed_at: clock.now().toISOString() });
    return true;
  }

  return {
    close,
    /** Closes every subscription due at its provider; answers how many were closed. */
    async closeDue(): Promise<number> {
      const cutoff = new Date(clock.now().getTime() + PROVIDER_STOP_NOTICE_MS).toISOString();
      let closed = 0;
      for (const row of await dueAtProvider(db, cutoff)) {
        try {
          if (await close(row.id)) closed++;
        } catch (error) {
          // Razorpay refused or could not be reached: the next run tries again.
          log.warn({ err: error, subscriptionId: row.id }, 'closing a subscription at Razorpay failed');
        }
      }
      return closed;
    },
  };
}

export type ProviderClosing = ReturnType<typeof createProviderClosing>;
