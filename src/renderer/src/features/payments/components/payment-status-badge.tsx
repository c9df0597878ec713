import { Badge, Group } from '@mantine/core';
import type { Payment } from '../../../../../shared/api/payments';
import { PAYMENT_STATUS_LABELS } from './payment-format';

/** A payment's status as a dot badge (the text keeps the body colour in both schemes), plus "Sandbox". */
export function PaymentStatusBadge({ payment }: { payment: Pick<Payment, 'status' | 'sandbox'> }) {
  const status = PAYMENT_STATUS_LABELS[payment.status];
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="dot" color={status.color} size="md">
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
