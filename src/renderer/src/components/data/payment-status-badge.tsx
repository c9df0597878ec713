import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Group } from '@mantine/core';
import type { Payment, PaymentStatus } from '../../../../shared/api/payments';
import { formatAmount } from '../../lib/format-money';

/** What each payment status means to the buyer. */
// Each label is read in the language shown at the moment it is read.
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, { readonly label: string; color: string }> = {
  paid: {
    get label() {
      return t`Paid`;
    },
    color: 'teal',
  },
  failed: {
    get label() {
      return t`Failed`;
    },
    color: 'red',
  },
  created: {
    get label() {
      return t`Not completed`;
    },
    color: 'gray',
  },
  expired: {
    get label() {
      return t`Expired`;
    },
    color: 'orange',
  },
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
    if (payment.amount <= 0) return { label: t`No charge`, color: 'gray' };
    if (payment.refunded >= payment.amount) return { label: t`Refunded`, color: 'violet' };
    if (payment.refunded > 0) {
      const refunded = formatAmount(payment.refunded, payment.currency);
      const amount = formatAmount(payment.amount, payment.currency);
      return { label: t`Partially refunded ${refunded} of ${amount}`, color: 'yellow' };
    }
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
  const { t } = useLingui();
  return (
    // A dark orange that keeps the badge's small white text above 4.5:1 in both schemes.
    <Badge variant="filled" color="#a8400c" size="sm" title={t`Sandbox: no money moved`}>
      <Trans>Sandbox</Trans>
    </Badge>
  );
}
