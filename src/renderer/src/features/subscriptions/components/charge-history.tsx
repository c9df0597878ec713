import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { Invoice } from '../../../../../shared/api/invoices';
import type { Payment } from '../../../../../shared/api/payments';
import { portalPaths } from '../../../../../shared/routes';
import { PaymentStatusBadge } from '../../../components/data/payment-status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { billingApi } from '../../invoices';
import { subscriptionMessages, useGetSubscriptionQuery } from '../subscriptions-endpoints';

/** The invoices of the customer's charges, by payment id (the newest 100, plenty for one page of charges). */
function useInvoicesByPayment(): Map<string, Invoice> {
  const { data } = billingApi.endpoints.getMyInvoices.useQuery({ page: 1, perPage: 100, kind: 'invoice' });
  const byPayment = new Map<string, Invoice>();
  for (const invoice of data?.data ?? []) if (invoice.payment_id) byPayment.set(invoice.payment_id, invoice);
  return byPayment;
}

function ChargeRow({ charge, invoice }: { charge: Payment; invoice: Invoice | undefined }) {
  const number = invoice?.number;
  return (
    <Group
      component="li"
      justify="space-between"
      align="center"
      gap="xs"
      py={8}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Text size="sm" fw={600}>
          {formatMoney(charge.amount, charge.currency)}{' '}
          <Text span size="sm" c="dimmed" fw={400}>
            {formatDateTime(charge.paid_at ?? charge.created_at)}
          </Text>
        </Text>
        {charge.failure_reason ? (
          <Text size="xs" c="dimmed">
            {charge.failure_reason}
          </Text>
        ) : null}
      </Stack>
      <Group gap="sm" wrap="nowrap">
        <PaymentStatusBadge payment={charge} />
        {invoice ? (
          <Anchor component={Link} to={portalPaths.billing} size="sm" underline="always">
            <Trans>Invoice {number}</Trans>
          </Anchor>
        ) : null}
      </Group>
    </Group>
  );
}

/** Every charge of a subscription, newest first, each with its invoice on the Billing page. */
export function ChargeHistory({ subscriptionId, headingId }: { subscriptionId: string; headingId: string }) {
  const { t } = useLingui();
  const detail = useGetSubscriptionQuery(subscriptionId);
  const invoices = useInvoicesByPayment();
  const charges = detail.data?.charges;

  return (
    <Stack gap={4} component="section" aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        <Trans>Charges</Trans>
      </Title>
      {detail.isError && !charges ? (
        <Group gap="xs">
          <Text size="sm" role="alert">
            {failureMessage(detail.error, subscriptionMessages.fetchDetailFailed)}
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => void detail.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </Group>
      ) : !charges ? (
        <Stack gap={6} aria-busy="true" aria-label={t`Loading the charges`}>
          <Skeleton height={34} />
          <Skeleton height={34} />
        </Stack>
      ) : charges.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No charge yet.</Trans>
        </Text>
      ) : (
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label={t`Charges`}>
          {charges.map((charge) => (
            <ChargeRow
              key={charge.id}
              charge={charge}
              invoice={
                invoices.get(charge.id) ?? (charge.payment_id ? invoices.get(charge.payment_id) : undefined)
              }
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
