import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { AlertIcon, RefreshIcon } from '../../../components/brand/icons';
import { preloadCharts } from '../../../components/charts/lazy-charts';
import { PageFrame } from '../../../components/layout/page-frame';
import { formatDateTime, formatRelative } from '../../licenses';
import { useGetDashboardQuery } from '../admin-endpoints';
import { LicenseStatusPanel } from '../dashboard/license-status-panel';
import { RevenuePanel } from '../dashboard/revenue-panel';
import { RecentEventsPanel, SeverityPanel } from '../dashboard/security-panels';
import { StatCards } from '../dashboard/stat-cards';
import { SubscriptionCards } from '../dashboard/subscription-cards';
import { TrialsPanel } from '../dashboard/trials-panel';
import { failureOf } from '../query-answer';

/** `/admin`: accounts, licenses, machines, revenue, subscriptions, trials and security at a glance (GET /admin/dashboard, one call). */
export default function AdminDashboardPage() {
  const { t } = useLingui();
  const answer = useGetDashboardQuery();
  // The charts' code downloads alongside the figures, not after them: no chart skeleton is left waiting.
  useEffect(preloadCharts, []);
  const stats = answer.data ?? null;
  const loading = answer.isFetching;
  const error = failureOf(answer);
  // "Refresh" asks the server again rather than showing the cached numbers.
  const refresh = () => void answer.refetch();
  const updated = stats ? formatRelative(stats.generated_at) : '';

  return (
    <PageFrame
      title={t`Overview`}
      description={t`Accounts, licenses, revenue, subscriptions and security at a glance.`}
      actions={
        <Button
          variant="default"
          leftSection={<RefreshIcon size={16} />}
          onClick={refresh}
          loading={loading && stats !== null}
        >
          <Trans>Refresh</Trans>
        </Button>
      }
    >
      {error && (
        <Alert color="red" icon={<AlertIcon />} title={error} role="alert">
          <Group justify="space-between" gap="sm">
            <Text size="sm">
              {stats ? (
                <Trans>These numbers may be out of date.</Trans>
              ) : (
                <Trans>The overview could not be loaded.</Trans>
              )}{' '}
              <Trans>Check your connection and try again.</Trans>
            </Text>
            <Button size="xs" variant="light" color="red" onClick={refresh}>
              <Trans>Retry</Trans>
            </Button>
          </Group>
        </Alert>
      )}
      {stats && (
        <Text size="xs" c="dimmed" role="status">
          <Trans>
            Updated{' '}
            <time dateTime={stats.generated_at} title={formatDateTime(stats.generated_at)}>
              {updated}
            </time>
          </Trans>
        </Text>
      )}
      {(stats || loading) && <StatCards stats={stats} />}
      {(stats || loading) && <SubscriptionCards subscriptions={stats?.subscriptions ?? null} />}
      {stats ? (
        <Grid gap="md">
          {/* Two columns that each flow on their own: the long event list does not stretch the small panels. */}
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <Stack gap="md">
              <RevenuePanel revenue={stats.revenue} />
              <TrialsPanel trials={stats.trials} />
              <RecentEventsPanel events={stats.security.recent} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Stack gap="md">
              <LicenseStatusPanel licenses={stats.licenses} />
              <SeverityPanel security={stats.security} />
            </Stack>
          </Grid.Col>
        </Grid>
      ) : (
        loading && (
          <Grid gap="md" aria-hidden="true">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Skeleton height={340} radius="lg" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <Skeleton height={340} radius="lg" />
            </Grid.Col>
          </Grid>
        )
      )}
    </PageFrame>
  );
}
