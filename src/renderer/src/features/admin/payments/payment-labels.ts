import { t } from '@lingui/core/macro';
import type { AdminPayment, PaymentProviderName } from '../../../../../shared/api/payments';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';

/** "Razorpay" (a name, as it is) or "Sandbox" in the language shown. */
export const providerLabel = (provider: PaymentProviderName): string =>
  provider === 'razorpay' ? 'Razorpay' : t`Sandbox`;

const checkoutOpened = (provider: PaymentProviderName): string =>
  provider === 'razorpay'
    ? t`Checkout opened with Razorpay.`
    : t`Checkout opened in the payment sandbox: no money moves.`;

/** A payment's moment, as the language shown writes a date and time. */
export const paymentTime = (iso: string) =>
  new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

/** One step of a payment's life, as the detail's timeline shows it. */
export interface PaymentStep {
  title: string;
  at: string | null;
  detail?: string;
  tone: 'done' | 'failed' | 'waiting';
}

/**
 * What happened to a payment, oldest first: the order, then payment or failure. The server
 * keeps the times of each step (created, paid, last change), not a log, so this is read from them.
 */
export function paymentSteps(payment: AdminPayment): PaymentStep[] {
  const steps: PaymentStep[] = [
    {
      title: t`Order created`,
      at: payment.created_at,
      detail: checkoutOpened(payment.provider),
      tone: 'done',
    },
  ];
  if (payment.status === 'paid')
    steps.push({
      title: t`Paid`,
      at: payment.paid_at ?? payment.updated_at,
      detail: payment.license_id
        ? t`The payment was verified and its license granted.`
        : t`The payment was verified.`,
      tone: 'done',
    });
  else if (payment.status === 'failed')
    steps.push({
      title: t`Failed`,
      at: payment.updated_at,
      detail: payment.failure_reason ?? t`The provider reported no reason.`,
      tone: 'failed',
    });
  else
    steps.push({
      title: t`Waiting for payment`,
      at: null,
      detail: t`The buyer has not completed the checkout. Nothing was charged.`,
      tone: 'waiting',
    });
  return steps;
}
