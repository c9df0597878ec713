import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, SegmentedControl, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { LoadingBlock } from '../../../components/data/loading-block';
import { RetryNotice } from '../../../components/data/retry-notice';
import { failureMessage } from '../../../lib/api-errors';
import { useGetLicenseUsageQuery } from '../licenses-endpoints';
import { isMetered } from '../license-format';
import { dailyUsage } from '../usage-history';
import { FeatureUsageMeter } from './feature-usage-meter';
import { SERIES_COLORS, UsageChart } from './usage-chart';

const RANGES = [
  { value: '7', label: msg`7 days` },
  { value: '30', label: msg`30 days` },
  { value: '90', label: msg`90 days` },
];

/** The license's usage: this period per metered feature, and a chart per feature over the chosen days. */
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
  const { t } = useLingui();
  const [days, setDays] = useState('30');
  // While another range loads, the one on screen stays (the hook keeps the last answer).
  const { data: usage, isError, error, refetch } = useGetLicenseUsageQuery({ licenseId, days: Number(days) });

  useEffect(() => {
    if (usage) onUsage?.(usage.usage_info.features);
  }, [usage, onUsage]);

  const metered = usage ? usage.usage_info.features.filter(isMetered) : [];

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3" id={headingId}>
            <Trans>Usage</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Use of the metered features this period, and per day.</Trans>
          </Text>
        </div>
        <SegmentedControl
          value={days}
          onChange={setDays}
          data={RANGES.map((range) => ({ value: range.value, label: t(range.label) }))}
          aria-label={t`Usage history range`}
          size="xs"
        />
      </Group>
      {isError ? (
        <RetryNotice
          title={t`Could not load usage`}
          message={failureMessage(error, licenseMessages.fetchUsageFailed)}
          onRetry={() => void refetch()}
        />
      ) : !usage ? (
        <LoadingBlock label={t`Loading usage`}>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Skeleton height={300} radius="lg" />
            <Skeleton height={300} radius="lg" />
          </SimpleGrid>
        </LoadingBlock>
      ) : metered.length === 0 ? (
        <Text size="sm">
          <Trans>This plan has no metered features: nothing counts against a limit.</Trans>
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          {metered.map((feature, index) => {
            const name = feature.name;
            return (
              <Card
                key={feature.feature_id}
                withBorder
                padding="lg"
                component="article"
                aria-label={t`${name} usage`}
              >
                <Stack gap="md">
                  <Title order={3} size="h4">
                    {feature.name}
                  </Title>
                  <FeatureUsageMeter feature={feature} showName={false} />
                  <UsageChart
                    caption={t`${name} per day over the last ${days} days`}
                    height={180}
                    unit={feature.unit ?? undefined}
                    data={dailyUsage(usage.history, [feature], Number(days))}
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
            );
          })}
        </SimpleGrid>
      )}
    </Stack>
  );
}
