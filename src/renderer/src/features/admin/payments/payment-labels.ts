import type { AdminPayment, PaymentProviderName } from '../../../../../shared/api/payments';

export const PROVIDER_LABELS: Record<PaymentProviderName, string> = {
  razorpay: 'Razorpay',
  sandbox: 'Sandbox',
};

const CHECKOUT_OPENED: Record<PaymentProviderName, string> = {
  razorpay: 'Checkout opened with Razorpay.',
  sandbox: 'Checkout opened in the payment sandbox: no money moves.',
};

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const paymentTime = (iso: string) => when.format(new Date(iso));

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
      title: 'Order created',
      at: payment.created_at,
      detail: CHECKOUT_OPENED[payment.provider],
      tone: 'done',
    },
  ];
  if (payment.status === 'paid')
    steps.push({
      title: 'Paid',
      at: payment.paid_at ?? payment.updated_at,
      detail: payment.license_id
        ? 'The payment was verified and its license granted.'
        : 'The payment was verified.',
      tone: 'done',
    });
  else if (payment.status === 'failed')
    steps.push({
      title: 'Failed',
      at: payment.updated_at,
      detail: payment.failure_reason ?? 'The provider reported no reason.',
      tone: 'failed',
    });
  else
    steps.push({
      title: 'Waiting for payment',
      at: null,
      detail: 'The buyer has not completed the checkout. Nothing was charged.',
      tone: 'waiting',
    });
  return steps;
}
