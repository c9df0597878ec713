import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { PaymentOrder } from '../../../../../shared/api/payments';
import { AlertIcon } from '../../../components/brand/icons';
import { formatAmount } from '../../../lib/format-money';
import { SandboxNotice } from './sandbox-notice';
import { Notice } from '../../../components/data/alert-notice';

/** What the sandbox checkout is paying: an order (one payment) or a subscription's first charge. */
export interface SandboxCheckoutSubject {
  planName: string;
  /** In the currency's minor unit. */
  amount: number;
  currency: string;
  /** "Order" or "Subscription", and the provider's id of it. */
  reference: { label: string; id: string };
  email?: string | undefined;
  /** For a subscription: what is charged afterwards ("then ₹999 / month until you cancel"). */
  recurring?: string | undefined;
}

/** The sandbox checkout's view of an order. */
export const orderSubject = (order: PaymentOrder): SandboxCheckoutSubject => ({
  planName: order.plan.name,
  amount: order.amount,
  currency: order.currency,
  reference: { label: t`Order`, id: order.order_id },
  email: order.prefill?.email,
});

export interface SandboxCheckoutModalProps {
  subject: SandboxCheckoutSubject | null;
  /** Which answer is on its way. */
  busy: 'pay' | 'decline' | null;
  /** The last attempt's failure (a decline, or a refused verification). */
  problem: string | null;
  onPay(): void;
  onDecline(): void;
  onClose(): void;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" align="baseline">
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Box component="dd" m={0} ta="right" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Group>
  );
}

/**
 * The portal's stand-in for Razorpay Checkout on a server without Razorpay keys (docs/payments.md,
 * "How the sandbox works"): labelled as a sandbox at every step, because no money moves.
 */
export function SandboxCheckoutModal({
  subject,
  busy,
  problem,
  onPay,
  onDecline,
  onClose,
}: SandboxCheckoutModalProps) {
  const { t } = useLingui();
  return (
    <Modal
      opened={subject !== null}
      onClose={onClose}
      title={t`Sandbox checkout`}
      centered
      closeOnClickOutside={!busy}
      closeOnEscape={!busy}
      withCloseButton={!busy}
      closeButtonProps={{ 'aria-label': t`Close the sandbox checkout` }}
      size="md"
    >
      {subject ? (
        <Stack gap="md">
          <SandboxNotice title={t`Sandbox: no real money`} testId="sandbox-notice">
            <Trans>
              This server runs the payment sandbox. No card is needed and nothing is charged. Pay grants the
              plan exactly as a real payment would; Decline answers as a declined card would.
            </Trans>
          </SandboxNotice>
          <Stack component="dl" gap={8} m={0}>
            <Row label={t`Plan`}>
              <Text size="sm" fw={600}>
                {subject.planName}
              </Text>
            </Row>
            <Row label={t`Amount`}>
              <Text size="sm" fw={600}>
                {formatAmount(subject.amount, subject.currency)}{' '}
                <Text span size="xs" c="dimmed">
                  <Trans>(test payment)</Trans>
                </Text>
              </Text>
            </Row>
            {subject.recurring ? (
              <Row label={t`Then`}>
                <Text size="sm">{subject.recurring}</Text>
              </Row>
            ) : null}
            <Row label={subject.reference.label}>
              <Code fz="xs">{subject.reference.id}</Code>
            </Row>
            {subject.email ? (
              <Row label={t`Billed to`}>
                <Text size="sm">{subject.email}</Text>
              </Row>
            ) : null}
          </Stack>
          {problem ? (
            <Notice
              color="red"
              variant="light"
              icon={<AlertIcon size={20} />}
              role="alert"
              title={t`Not paid`}
            >
              {problem}
            </Notice>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button
              variant="default"
              onClick={onDecline}
              loading={busy === 'decline'}
              disabled={busy === 'pay'}
            >
              <Trans>Decline</Trans>
            </Button>
            <Button onClick={onPay} loading={busy === 'pay'} disabled={busy === 'decline'}>
              <Trans>Pay</Trans>
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
