import { msg, t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Group, Progress, Stack, Text } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import { formatDate, formatNumber, usedPercent } from '../license-format';
import { WARNING_TEXT } from './seat-meter';

const PERIOD_WORDS = { day: msg`today`, month: msg`this month` } as const;

/** "880 messages left · resets on Dec 1, 2025" (the server's own words say the same at greater length). */
function detail(feature: FeatureUsage, unit: string): string {
  if (feature.remaining === null) {
    if (!feature.period_end) return t`No limit`;
    const day = formatDate(feature.period_end);
    return t`No limit · resets on ${day}`;
  }
  const remaining = formatNumber(feature.remaining);
  if (!feature.period_end) return t`${remaining} ${unit} left`;
  const day = formatDate(feature.period_end);
  return t`${remaining} ${unit} left · resets on ${day}`;
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
  const { t } = useLingui();
  const percent = usedPercent(feature);
  // The unit is the plan's own word (data); only the fallback is the portal's.
  const unit = feature.unit ?? t`uses`;
  const period = feature.period ? t(PERIOD_WORDS[feature.period]) : t`this period`;
  const name = feature.name;
  const used = feature.used;
  const limit = feature.limit === null ? '' : formatNumber(feature.limit);
  const rawLimit = feature.limit;
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
          {feature.limit === null ? t`${unit} ${period} · unlimited` : t`of ${limit} ${unit} ${period}`}
        </Text>
      </Group>
      <Progress
        value={percent ?? 100}
        color={color}
        striped={percent === null}
        size="md"
        aria-label={
          rawLimit === null
            ? t`${name}: ${used} ${unit} used, no limit`
            : t`${name}: ${used} of ${rawLimit} ${unit} used`
        }
      />
      <Text size="xs" c={feature.available ? 'dimmed' : WARNING_TEXT}>
        {feature.available ? detail(feature, unit) : feature.message}
      </Text>
    </Stack>
  );
}
