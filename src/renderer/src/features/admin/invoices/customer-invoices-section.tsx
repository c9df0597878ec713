import { Trans, useLingui } from '@lingui/react/macro';
import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { failureMessage } from '../../../lib/api-errors';
import { InvoiceTable } from '../../invoices';
import { adminBillingMessages, useListCustomerInvoicesQuery } from './admin-invoices-endpoints';

/** How many of a customer's newest invoices and credit notes the user drawer lists. */
const SHOWN = 10;

/** A customer's invoices and credit notes, newest first, each with its PDF. */
export function CustomerInvoicesSection({ userId }: { userId: string }) {
  const { t } = useLingui();
  const answer = useListCustomerInvoicesQuery({ userId, perPage: SHOWN });
  const invoices = answer.currentData;
  const shown = SHOWN;
  const total = invoices?.total ?? 0;
  return (
    <Stack gap="sm" component="section" aria-labelledby="customer-invoices-title">
      <Title order={3} size="h5" id="customer-invoices-title">
        <Trans>Invoices and credit notes</Trans>
      </Title>
      {answer.isError && !invoices ? (
        <Text size="sm" c="dimmed">
          {failureMessage(answer.error, adminBillingMessages.fetchInvoicesFailed)}
        </Text>
      ) : !invoices ? (
        <Skeleton height={48} aria-label={t`Loading the invoices`} />
      ) : invoices.total === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>No invoices yet.</Trans>
        </Text>
      ) : (
        <>
          <InvoiceTable
            invoices={invoices.data}
            label={t`The customer’s invoices and credit notes`}
            layout="cards"
          />
          {invoices.total > SHOWN ? (
            <Text size="xs" c="dimmed">
              <Trans>
                The newest {shown} of {total}.
              </Trans>
            </Text>
          ) : null}
        </>
      )}
    </Stack>
  );
}
