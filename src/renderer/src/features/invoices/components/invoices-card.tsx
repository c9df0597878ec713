import { Trans, useLingui } from '@lingui/react/macro';
import { Button, EmptyState, Group, Pagination, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../../shared/constants';
import { CardIcon } from '../../../components/brand/icons';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { billingMessages, useGetMyInvoicesQuery } from '../invoices-endpoints';
import { InvoiceTable } from './invoice-table';

/** GET /billing/invoices: the customer's invoices and credit notes, newest first, with their PDF. */
export function InvoicesCard({ perPage = DEFAULT_PAGE_SIZE }: { perPage?: number }) {
  const { t } = useLingui();
  const [page, setPage] = useState(1);
  const invoices = useGetMyInvoicesQuery({ page, perPage }, { refetchOnMountOrArgChange: true });
  const data = invoices.currentData ?? null;
  const failed = invoices.isError && !invoices.isFetching;
  const refreshing = data !== null && invoices.isFetching;
  const reload = () => void invoices.refetch();
  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;

  return (
    <SectionCard
      headingId="invoices-title"
      title={t`Invoices`}
      description={t`One invoice for every payment, and a credit note for every refund. Open one to see what it itemizes, or download it as PDF for your records.`}
      actions={
        <Button variant="default" size="sm" onClick={reload} loading={refreshing}>
          <Trans>Refresh</Trans>
        </Button>
      }
    >
      {failed ? (
        <ErrorAlert title={t`Invoices could not be loaded`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failureMessage(invoices.error, billingMessages.fetchInvoicesFailed)}</Text>
            <Button size="xs" variant="white" color="red" onClick={reload}>
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </ErrorAlert>
      ) : data && data.total === 0 ? (
        <EmptyState
          icon={<CardIcon size={28} />}
          withIndicatorBackground
          title={t`No invoices yet`}
          description={t`Buy a plan: its invoice shows up here as soon as the payment is confirmed.`}
          py="lg"
        />
      ) : (
        <InvoiceTable
          invoices={data?.data ?? null}
          label={t`Your invoices`}
          busy={refreshing}
          organisationLinks
        />
      )}
      {data && totalPages > 1 ? (
        <Group justify="flex-end">
          <nav aria-label={t`Invoice pages`}>
            <Pagination
              total={totalPages}
              value={page}
              onChange={setPage}
              size="sm"
              getItemProps={(item) => ({
                'aria-label': t`Page ${item}`,
                'aria-current': item === page ? 'page' : undefined,
              })}
              getControlProps={(control) => ({
                'aria-label': {
                  first: t`First page`,
                  previous: t`Previous page`,
                  next: t`Next page`,
                  last: t`Last page`,
                }[control],
              })}
            />
          </nav>
        </Group>
      ) : null}
    </SectionCard>
  );
}
