import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AdminPayment } from '../../../../../shared/api/payments';
import type { Refund } from '../../../../../shared/api/invoices';
import { StatusBadge } from '../../../components/data/status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { formatMinorAmount } from '../../invoices';
import { adminBillingMessages, useGetPaymentRefundsQuery } from './admin-invoices-endpoints';
import { RefundDialog } from './refund-dialog';

const ACTION_LABELS: Record<Refund['license_action'], string> = {
  keep: 'license kept',
  shorten: 'license ended',
  revoke: 'license revoked',
};

const refundTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A paid payment's invoice, its refunds with their credit notes, and the Refund dialog. */
export function RefundsSection({ payment }: { payment: AdminPayment }) {
  const answer = useGetPaymentRefundsQuery(payment.id);
  const [opened, setOpened] = useState(false);
  const refunds = answer.currentData;
  const money = (minor: number) => formatMinorAmount(minor, payment.currency);

  return (
    <Stack gap="sm" component="section" aria-labelledby="payment-refunds-title">
      <Group justify="space-between" gap="sm">
        <Title order={3} size="h5" id="payment-refunds-title">
          Invoice and refunds
        </Title>
        {refunds && refunds.refundable > 0 ? (
          <Button size="xs" variant="light" color="red" onClick={() => setOpened(true)}>
            Refund…
          </Button>
        ) : null}
      </Group>
      {answer.isError && !refunds ? (
        <Text size="sm" c="dimmed">
          {failureMessage(answer.error, adminBillingMessages.fetchRefundsFailed)}
        </Text>
      ) : !refunds ? (
        <Skeleton height={48} aria-label="Loading the refunds" />
      ) : (
        <Stack gap="xs">
          <Text size="sm">
            Invoice {refunds.invoice ? <strong>{refunds.invoice.number}</strong> : 'not issued yet'} ·{' '}
            {money(refunds.refunded)} refunded · {money(refunds.refundable)} refundable
          </Text>
          {refunds.refunds.length === 0 ? (
            <Text size="sm" c="dimmed">
              No refunds.
            </Text>
          ) : (
            <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Refunds">
              {refunds.refunds.map((refund) => (
                <Paper key={refund.id} withBorder p="sm" radius="md" component="li">
                  <Group justify="space-between" gap="xs" wrap="wrap">
                    <Text size="sm" fw={600}>
                      {money(refund.amount)} · {ACTION_LABELS[refund.license_action]}
                    </Text>
                    {refund.credit_note ? (
                      <StatusBadge tone="caution" size="md">
                        Credit note {refund.credit_note.number}
                      </StatusBadge>
                    ) : (
                      <StatusBadge tone="neutral" size="md">
                        Pending
                      </StatusBadge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    {refundTime.format(new Date(refund.created_at))}
                    {refund.reason ? ` · ${refund.reason}` : ''}
                  </Text>
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      {refunds && refunds.refundable > 0 ? (
        <RefundDialog
          key={refunds.refundable}
          opened={opened}
          onClose={() => setOpened(false)}
          refunds={refunds}
          intro={`${payment.plan.name} · ${payment.user_email ?? 'Deleted account'} · ${money(refunds.paid)} paid`}
        />
      ) : null}
    </Stack>
  );
}
