import { Skeleton, Stack, Text, Title } from '@mantine/core';
import { failureMessage } from '../../../lib/api-errors';
import { InvoiceTable } from '../../invoices';
import { adminBillingMessages, useListCustomerInvoicesQuery } from './admin-invoices-endpoints';

/** How many of a customer's newest invoices and credit notes the user drawer lists. */
const SHOWN = 10;

/** A customer's invoices and credit notes, newest first, each with its PDF. */
export function CustomerInvoicesSection({ userId }: { userId: string }) {
  const answer = useListCustomerInvoicesQuery({ userId, perPage: SHOWN });
  const invoices = answer.currentData;
  return (
    <Stack gap="sm" component="section" aria-labelledby="customer-invoices-title">
      <Title order={3} size="h5" id="customer-invoices-title">
        Invoices and credit notes
      </Title>
      {answer.isError && !invoices ? (
        <Text size="sm" c="dimmed">
          {failureMessage(answer.error, adminBillingMessages.fetchInvoicesFailed)}
        </Text>
      ) : !invoices ? (
        <Skeleton height={48} aria-label="Loading the invoices" />
      ) : invoices.total === 0 ? (
        <Text size="sm" c="dimmed">
          No invoices yet.
        </Text>
      ) : (
        <>
          <InvoiceTable
            invoices={invoices.data}
            label="The customer’s invoices and credit notes"
            layout="cards"
          />
          {invoices.total > SHOWN ? (
            <Text size="xs" c="dimmed">
              The newest {SHOWN} of {invoices.total}.
            </Text>
          ) : null}
        </>
      )}
    </Stack>
  );
}
