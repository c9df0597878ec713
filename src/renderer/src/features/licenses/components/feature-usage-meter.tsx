import { Group, Progress, Stack, Text } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import { formatDate, formatNumber, usedPercent } from '../license-format';
import { WARNING_TEXT } from './seat-meter';

const PERIOD_WORDS = { day: 'today', month: 'this month' } as const;

/** "880 messages left · resets on Dec 1, 2025" (the server's own words say the same at greater length). */
function detail(feature: FeatureUsage, unit: string): string {
  const left = feature.remaining === null ? 'No limit' : `${formatNumber(feature.remaining)} ${unit} left`;
  return feature.period_end ? `${left} · resets on ${formatDate(feature.period_end)}` : left;
}

/** One metered feature's use this period: the numbers, a bar against its limit and the server's words. */
export function FeatureUsageMeter({
  feature,
  showName = true,
}: {
  feature: FeatureUsage;
  /** Off where a heading above already names the feature. */
  showName?: boolean;
}) {
  const percent = usedPercent(feature);
  const unit = feature.unit ?? 'uses';
  const period = feature.period ? PERIOD_WORDS[feature.period] : 'this period';
  const color = percent === null ? 'teal' : percent >= 100 ? 'red' : percent >= 80 ? 'orange' : 'iris';
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="wrap" align="baseline">
        {showName ? (
          <Text fw={600} size="sm">
            {feature.name}
          </Text>
        ) : null}
        <Text size="sm">
          <Text span fw={700}>
            {formatNumber(feature.used)}
          </Text>{' '}
          {feature.limit === null
            ? `${unit} ${period} · unlimited`
            : `of ${formatNumber(feature.limit)} ${unit} ${period}`}
        </Text>
      </Group>
      <Progress
        value={percent ?? 100}
        color={color}
        striped={percent === null}
        size="md"
        aria-label={
          feature.limit === null
            ? `${feature.name}: ${feature.used} ${unit} used, no limit`
            : `${feature.name}: ${feature.used} of ${feature.limit} ${unit} used`
        }
      />
      <Text size="xs" c={feature.available ? 'dimmed' : WARNING_TEXT}>
        {feature.available ? detail(feature, unit) : feature.message}
      </Text>
    </Stack>
  );
}
