import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { HeaderedPage } from '../../../components/layout/page-header';
import { failureMessage } from '../../../lib/api-errors';
import { useGetPublicPlansQuery } from '../../plans';
import type { RecurringPlan } from '../components/change-plan-dialog';
import { SubscriptionCard } from '../components/subscription-card';
import { subscriptionMessages, useGetSubscriptionsQuery } from '../subscriptions-endpoints';

/** A card-sized placeholder while the list loads, so nothing jumps when it arrives. */
function SubscriptionSkeleton() {
  const { t } = useLingui();
  return (
    <Card withBorder padding="lg" aria-busy="true" aria-label={t`Loading your subscriptions`}>
      <Stack gap="md">
        <Group justify="space-between">
          <Skeleton height={24} width="30%" />
          <Skeleton height={24} width={90} radius="xl" />
        </Group>
        <Skeleton height={48} />
        <Group gap="sm">
          <Skeleton height={32} width={120} />
          <Skeleton height={32} width={140} />
        </Group>
        <Skeleton height={80} />
      </Stack>
    </Card>
  );
}

/** /subscriptions: the customer's subscriptions, what they cost and when, and what can be done with them. */
export default function SubscriptionsPage() {
  const { t } = useLingui();
  const subscriptions = useGetSubscriptionsQuery(undefined, { refetchOnMountOrArgChange: true });
  const plans = useGetPublicPlansQuery();
  // What a subscription may move to: a personal monthly or yearly plan. A per-seat plan is bought
  // for an organisation on its own page, and the server refuses a move to one.
  const recurring = (plans.data ?? []).filter(
    (plan): plan is RecurringPlan =>
      (plan.billing_interval === 'month' || plan.billing_interval === 'year') &&
      plan.price_minor > 0 &&
      !plan.seat_based,
  );
  const list = subscriptions.currentData ?? subscriptions.data;

  return (
    <HeaderedPage
      size="lg"
      title={t`Subscriptions`}
      description={t`Your monthly and yearly plans: when they renew, what they cost, and how to change or cancel them.`}
    >
      <Stack gap="lg">
        {subscriptions.isError && !list ? (
          <ErrorAlert title={t`Your subscriptions could not be loaded`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                {failureMessage(subscriptions.error, subscriptionMessages.fetchListFailed)}
              </Text>
              <Button size="xs" variant="white" color="red" onClick={() => void subscriptions.refetch()}>
                <Trans>Try again</Trans>
              </Button>
            </Stack>
          </ErrorAlert>
        ) : !list ? (
          <SubscriptionSkeleton />
        ) : list.length === 0 ? (
          <Card withBorder padding="xl">
            <Stack gap="sm" align="flex-start">
              <Text fw={600}>
                <Trans>You have no subscription yet</Trans>
              </Text>
              <Text size="sm" c="dimmed">
                <Trans>
                  Monthly and yearly plans renew on their own until you cancel. Pick one on the Purchase page.
                </Trans>
              </Text>
              <Button component={Link} to={portalPaths.purchase}>
                <Trans>See the plans</Trans>
              </Button>
            </Stack>
          </Card>
        ) : (
          list.map((subscription) => (
            <SubscriptionCard key={subscription.id} subscription={subscription} plans={recurring} />
          ))
        )}
        <Text size="sm" c="dimmed">
          <Trans>
            Invoices for every charge are on the{' '}
            <Anchor component={Link} to={portalPaths.billing} underline="always" fz="inherit">
              Billing page
            </Anchor>
            .
          </Trans>
        </Text>
      </Stack>
    </HeaderedPage>
  );
}
