import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AdminPayment } from '../../../../../shared/api/payments';
import type { Refund } from '../../../../../shared/api/invoices';
import { StatusBadge } from '../../../components/data/status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import { formatMinorAmount } from '../../invoices';
import { adminBillingMessages, useGetPaymentRefundsQuery } from './admin-invoices-endpoints';
import { RefundDialog } from './refund-dialog';

const ACTION_LABELS: Record<Refund['license_action'], MessageDescriptor> = {
  keep: msg`license kept`,
  shorten: msg`license ended`,
  revoke: msg`license revoked`,
};

/** A refund's moment, as the language shown writes it. */
const refundTime = (iso: string) =>
  new Intl.DateTimeFormat(formattingLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

/** "Invoice INV-1 · ₹0 refunded · ₹999 refundable". */
function RefundTotals({
  invoiceNumber,
  refunded,
  refundable,
}: {
  invoiceNumber: string | null;
  refunded: string;
  refundable: string;
}) {
  return (
    <Text size="sm">
      {invoiceNumber ? (
        <Trans>
          Invoice <strong>{invoiceNumber}</strong> · {refunded} refunded · {refundable} refundable
        </Trans>
      ) : (
        <Trans>
          Invoice not issued yet · {refunded} refunded · {refundable} refundable
        </Trans>
      )}
    </Text>
  );
}

/** "Pro · ada@example.com · ₹999 paid": what the refund dialog refunds. */
function refundIntro(planName: string, buyer: string, paid: string): string {
  return t`${planName} · ${buyer} · ${paid} paid`;
}

/** A paid payment's invoice, its refunds with their credit notes, and the Refund dialog. */
export function RefundsSection({ payment }: { payment: AdminPayment }) {
  const { t, i18n } = useLingui();
  const answer = useGetPaymentRefundsQuery(payment.id);
  const [opened, setOpened] = useState(false);
  const refunds = answer.currentData;
  const money = (minor: number) => formatMinorAmount(minor, payment.currency);

  return (
    <Stack gap="sm" component="section" aria-labelledby="payment-refunds-title">
      <Group justify="space-between" gap="sm">
        <Title order={3} size="h5" id="payment-refunds-title">
          <Trans>Invoice and refunds</Trans>
        </Title>
        {refunds && refunds.refundable > 0 ? (
          <Button size="xs" variant="light" color="red" onClick={() => setOpened(true)}>
            <Trans>Refund…</Trans>
          </Button>
        ) : null}
      </Group>
      {answer.isError && !refunds ? (
        <Text size="sm" c="dimmed">
          {failureMessage(answer.error, adminBillingMessages.fetchRefundsFailed)}
        </Text>
      ) : !refunds ? (
        <Skeleton height={48} aria-label={t`Loading the refunds`} />
      ) : (
        <Stack gap="xs">
          <RefundTotals
            invoiceNumber={refunds.invoice?.number ?? null}
            refunded={money(refunds.refunded)}
            refundable={money(refunds.refundable)}
          />
          {refunds.refunds.length === 0 ? (
            <Text size="sm" c="dimmed">
              <Trans>No refunds.</Trans>
            </Text>
          ) : (
            <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={t`Refunds`}>
              {refunds.refunds.map((refund) => {
                const noteNumber = refund.credit_note?.number;
                return (
                  <Paper key={refund.id} withBorder p="sm" radius="md" component="li">
                    <Group justify="space-between" gap="xs" wrap="wrap">
                      <Text size="sm" fw={600}>
                        {money(refund.amount)} · {i18n._(ACTION_LABELS[refund.license_action])}
                      </Text>
                      {refund.credit_note ? (
                        <StatusBadge tone="caution" size="md">
                          <Trans>Credit note {noteNumber}</Trans>
                        </StatusBadge>
                      ) : (
                        <StatusBadge tone="neutral" size="md">
                          <Trans>Pending</Trans>
                        </StatusBadge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {refundTime(refund.created_at)}
                      {refund.reason ? ` · ${refund.reason}` : ''}
                    </Text>
                  </Paper>
                );
              })}
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
          intro={refundIntro(
            payment.plan.name,
            payment.user_email ?? t`Deleted account`,
            money(refunds.paid),
          )}
        />
      ) : null}
    </Stack>
  );
}
