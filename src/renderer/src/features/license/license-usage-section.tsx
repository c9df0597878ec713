import {
  Button,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { FeatureUsage } from '../../../../shared/api/licenses';
import { licenseMessages } from '../../../../shared/messages';
import { Notice } from '../../components/data/notice';
import { useAppDispatch } from '../../app/hooks';
import { LoadingBlock } from '../../components/data/loading-block';
import { FeatureUsageMeter } from '../../components/licenses/feature-usage-meter';
import { SERIES_COLORS, UsageChart } from '../../components/licenses/usage-chart';
import type { LicenseUsage } from './license-api';
import { isMetered } from './license-format';
import { fetchLicenseUsage } from './license-slice';
import { dailyUsage } from './usage-history';

const RANGES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
];

type UsageLoad =
  { state: 'loading' } | { state: 'ready'; usage: LicenseUsage } | { state: 'failed'; message: string };

/** The licence's usage: this period per metered feature, and a chart per feature over the chosen days. */
export function LicenseUsageSection({
  licenseId,
  headingId,
  onUsage,
}: {
  licenseId: string;
  headingId: string;
  /** The fresh `usage_info` for the features table. */
  onUsage?(features: FeatureUsage[]): void;
}) {
  const dispatch = useAppDispatch();
  const [days, setDays] = useState('30');
  const [load, setLoad] = useState<UsageLoad>({ state: 'loading' });

  const fetchUsage = useCallback(async () => {
    setLoad((previous) => (previous.state === 'ready' ? previous : { state: 'loading' }));
    const result = await dispatch(fetchLicenseUsage({ licenseId, days: Number(days) }));
    if (fetchLicenseUsage.rejected.match(result))
      setLoad({ state: 'failed', message: result.payload ?? licenseMessages.fetchUsageFailed });
    else {
      setLoad({ state: 'ready', usage: result.payload });
      onUsage?.(result.payload.usage_info.features);
    }
  }, [dispatch, licenseId, days, onUsage]);

  useEffect(() => {
    void fetchUsage();
  }, [fetchUsage]);

  const metered = load.state === 'ready' ? load.usage.usage_info.features.filter(isMetered) : [];

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3" id={headingId}>
            Usage
          </Title>
          <Text size="sm" c="dimmed">
            Use of the metered features this period, and per day.
          </Text>
        </div>
        <SegmentedControl
          value={days}
          onChange={setDays}
          data={RANGES}
          aria-label="Usage history range"
          size="xs"
        />
      </Group>
      {load.state === 'loading' ? (
        <LoadingBlock label="Loading usage">
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Skeleton height={300} radius="lg" />
            <Skeleton height={300} radius="lg" />
          </SimpleGrid>
        </LoadingBlock>
      ) : load.state === 'failed' ? (
        <Notice tone="danger" title="Could not load usage" urgent>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{load.message}</Text>
            <Button size="xs" variant="light" onClick={() => void fetchUsage()}>
              Try again
            </Button>
          </Stack>
        </Notice>
      ) : metered.length === 0 ? (
        <Text size="sm">This plan has no metered features: nothing counts against a limit.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {metered.map((feature, index) => (
            <Card
              key={feature.feature_id}
              withBorder
              padding="lg"
              component="article"
              aria-label={`${feature.name} usage`}
            >
              <Stack gap="md">
                <Title order={3} size="h4">
                  {feature.name}
                </Title>
                <FeatureUsageMeter feature={feature} showName={false} />
                <UsageChart
                  caption={`${feature.name} per day over the last ${days} days`}
                  height={180}
                  unit={feature.unit ?? undefined}
                  data={dailyUsage(load.usage.history, [feature], Number(days))}
                  series={[
                    {
                      name: feature.key,
                      label: feature.name,
                      color: SERIES_COLORS[index % SERIES_COLORS.length] as string,
                    },
                  ]}
                />
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
