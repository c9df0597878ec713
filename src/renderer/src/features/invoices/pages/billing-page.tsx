import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Skeleton, Stack, Text } from '@mantine/core';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { HeaderedPage } from '../../../components/layout/page-header';
import { failureMessage } from '../../../lib/api-errors';
import { billingMessages, useGetBillingDetailsQuery } from '../invoices-endpoints';
import { BillingDetailsCard } from '../components/billing-details-card';
import { InvoicesCard } from '../components/invoices-card';

/** /billing: the customer's billing details and invoices. */
export default function BillingPage() {
  const { t } = useLingui();
  const details = useGetBillingDetailsQuery(undefined, { refetchOnMountOrArgChange: true });

  return (
    <HeaderedPage
      size="lg"
      title={t`Billing`}
      description={t`Your billing details and every invoice and credit note, as PDF.`}
    >
      <Stack gap="lg">
        {details.isError && details.currentData === undefined ? (
          <ErrorAlert title={t`Your billing details could not be loaded`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{failureMessage(details.error, billingMessages.fetchDetailsFailed)}</Text>
              <Button size="xs" variant="white" color="red" onClick={() => void details.refetch()}>
                <Trans>Try again</Trans>
              </Button>
            </Stack>
          </ErrorAlert>
        ) : details.currentData !== undefined ? (
          // Saved details from another device start the form again.
          <BillingDetailsCard key={details.currentData?.updated_at ?? 'none'} details={details.currentData} />
        ) : (
          <Card withBorder padding="lg" aria-busy="true" aria-label={t`Loading your billing details`}>
            <Stack gap="md">
              <Skeleton height={22} width="40%" />
              <Skeleton height={36} />
              <Skeleton height={36} />
              <Skeleton height={36} />
            </Stack>
          </Card>
        )}
        <InvoicesCard />
      </Stack>
    </HeaderedPage>
  );
}
