import type { VerifySubscriptionRequest } from '../../../shared/api/subscriptions.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { SubscriptionRow, UserRow } from '../../platform/db/tables.js';
import { badRequest } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { PaymentProvider } from '../payments/provider.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { subscriptionNotFound } from './refusals.js';

/**
 * What Checkout handed back must be about OUR subscription and signed with our key secret: a
 * mismatch is recorded as a security event and refused, and nothing is changed.
 */
export async function checkCheckoutSignature(
  { db, clock, provider }: { db: Db; clock: Clock; provider: PaymentProvider },
  user: UserRow,
  row: SubscriptionRow,
  answer: VerifySubscriptionRequest,
  meta: RequestMeta,
): Promise<void> {
  if (row.provider_subscription_id !== answer.razorpay_subscription_id) throw subscriptionNotFound();
  const valid = provider.isSubscriptionSignatureValid(
    row.provider_subscription_id,
    answer.razorpay_payment_id,
    answer.razorpay_signature,
  );
  if (valid) return;
  await recordSecurityEvent(db, clock, {
    type: securityEventTypes.paymentVerificationFailed,
    severity: 'warning',
    userId: user.id,
    meta,
    details: {
      subscription_id: row.id,
      provider_subscription_id: row.provider_subscription_id,
      provider_payment_id: answer.razorpay_payment_id,
    },
  });
  throw badRequest(
    'invalid_signature',
    'The payment could not be verified: its signature does not match this subscription. If money was taken, contact support with the subscription id.',
  );
}
