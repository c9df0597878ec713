import { Badge, Group } from '@mantine/core';
import type { Payment, PaymentStatus } from '../../../../shared/api/payments';
import { formatAmount } from '../../lib/format-money';

/** What each payment status means to the buyer. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, { label: string; color: string }> = {
  paid: { label: 'Paid', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  created: { label: 'Not completed', color: 'gray' },
  expired: { label: 'Expired', color: 'orange' },
};

/** What the badge needs of a payment: its status, and what it charged and what was refunded of it. */
export type PaymentBadgeFacts = Pick<Payment, 'status' | 'sandbox' | 'amount' | 'refunded' | 'currency'>;

/**
 * A payment's status in words: "Paid", "Partially refunded ₹5,000 of ₹14,999", "Refunded" once all
 * of it is, and "No charge" for a paid payment of nothing (a plan change its credit paid for), which
 * is no payment to refund or count.
 */
export function paymentStatusText(payment: Omit<PaymentBadgeFacts, 'sandbox'>): {
  label: string;
  color: string;
} {
  if (payment.status === 'paid') {
    if (payment.amount <= 0) return { label: 'No charge', color: 'gray' };
    if (payment.refunded >= payment.amount) return { label: 'Refunded', color: 'violet' };
    if (payment.refunded > 0)
      return {
        label: `Partially refunded ${formatAmount(payment.refunded, payment.currency)} of ${formatAmount(payment.amount, payment.currency)}`,
        color: 'yellow',
      };
  }
  return PAYMENT_STATUS_LABELS[payment.status];
}

/** A payment's status as a dot badge (the text keeps the body colour in both schemes), plus "Sandbox". */
export function PaymentStatusBadge({ payment }: { payment: PaymentBadgeFacts }) {
  const status = paymentStatusText(payment);
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="dot" color={status.color} size="md" tt="none" miw="max-content">
        {status.label}
      </Badge>
      {payment.sandbox ? <SandboxBadge /> : null}
    </Group>
  );
}

/** Marks a sandbox payment everywhere it shows: no money moved. */
export function SandboxBadge() {
  return (
    // A dark orange that keeps the badge's small white text above 4.5:1 in both schemes.
    <Badge variant="filled" color="#a8400c" size="sm" title="Sandbox: no money moved">
      Sandbox
    </Badge>
  );
}
