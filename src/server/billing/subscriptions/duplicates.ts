import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import { formatMoney } from '../../platform/mail/formatting.js';
import { lockAccount } from '../../identity/index.js';
import { lockOrganisation } from '../../licensing/index.js';
import { findLiveTwin } from './duplicates-repository.js';

/**
 * Holds the buyer (the organisation a seat-based plan is bought for, or the customer) until the
 * transaction ends: on PostgreSQL a row lock, so that of two first charges settling at once, on one
 * instance or two, the second waits here and then sees the first one's subscription live; SQLite
 * transactions already hold the database's write lock from their start (BEGIN IMMEDIATE).
 */
async function lockBuyer(
  trx: DbOrTransaction,
  subscription: Pick<SubscriptionRow, 'organisation_id' | 'user_id'>,
): Promise<void> {
  if (subscription.organisation_id !== null) await lockOrganisation(trx, subscription.organisation_id);
  else if (subscription.user_id !== null) await lockAccount(trx, subscription.user_id);
}

/**
 * The subscription already live that makes this one's first charge a second purchase of the same
 * thing: for a customer, another live subscription to the same plan; for an organisation, any other
 * live subscription of it (a second would issue a second license). A subscription that already has
 * its license is renewing, and a plan change's replacement does not count the one it replaces.
 * Call it in the transaction that settles the charge: it takes the buyer's lock first.
 */
export async function liveTwinOf(
  trx: DbOrTransaction,
  subscription: SubscriptionRow,
): Promise<SubscriptionRow | undefined> {
  if (subscription.license_id !== null) return undefined;
  if (subscription.organisation_id === null && subscription.user_id === null) return undefined;
  await lockBuyer(trx, subscription);
  return findLiveTwin(trx, subscription);
}

/** The id of the refund of a payment that would have started a second subscription: one per payment. */
export const duplicateRefundId = (paymentId: string) => `duplicate-${paymentId}`;

/** Why such a payment is refunded, as the refund and its credit note say. */
export const duplicateRefundReason = (planName: string) =>
  `A second subscription to ${planName}, which is already subscribed: refunded in full`;

/** The checkout's answer when its payment would have started a second subscription (refunded). */
export const alreadySubscribed = (planName: string, amount: { amountMinor: number; currency: string }) =>
  conflict(
    'already_subscribed',
    `You already subscribe to ${planName}, so this second subscription was not started. Its payment of ${formatMoney(
      amount.amountMinor,
      amount.currency,
    )} is refunded in full, and we have e-mailed you the details.`,
  );
