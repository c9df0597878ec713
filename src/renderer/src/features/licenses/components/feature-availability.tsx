import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Stack, Text, Title } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import type { Column } from '../../../components/data-table/columns';
import { ResponsiveTable } from '../../../components/data-table/responsive-table';
import { StatusBadge } from '../../../components/data/status-badge';
import { formatNumber, limitText } from '../license-format';

/** The table's columns, in the language shown (a function: called while rendering). */
const columns = (): Column<FeatureUsage>[] => [
  {
    key: 'feature',
    header: t`Feature`,
    render: (feature) => (
      <>
        <Text size="sm" fw={600}>
          {feature.name}
        </Text>
        <Text size="xs" c="dimmed">
          {feature.kind === 'metered' ? t`Metered` : t`On/off`}
        </Text>
      </>
    ),
  },
  {
    key: 'availability',
    header: t`Availability`,
    render: (feature) => (
      <>
        <StatusBadge tone={feature.available ? 'positive' : 'negative'} size="md">
          {feature.available ? t`Available` : t`Unavailable`}
        </StatusBadge>
        {feature.available ? null : (
          <Text size="xs" c="dimmed" mt={4}>
            {feature.message}
          </Text>
        )}
      </>
    ),
  },
  { key: 'limit', header: t`Limit`, render: (feature) => <Text size="sm">{limitText(feature)}</Text> },
  {
    key: 'used',
    header: t`Used this period`,
    render: (feature) => (
      <Text size="sm">{feature.kind === 'metered' ? formatNumber(feature.used) : '—'}</Text>
    ),
  },
  {
    key: 'remaining',
    header: t`Remaining`,
    render: (feature) => (
      <Text size="sm">
        {feature.kind !== 'metered'
          ? '—'
          : feature.remaining === null
            ? t`Unlimited`
            : formatNumber(feature.remaining)}
      </Text>
    ),
  },
];

/** The plan's features on this license: available or not, the limit, and this period's use. */
export function FeatureAvailability({
  features,
  headingId,
}: {
  features: FeatureUsage[];
  headingId: string;
}) {
  const { t } = useLingui();
  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <div>
        <Title order={2} size="h3" id={headingId}>
          <Trans>Features</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>What this license includes and whether each feature can be used now.</Trans>
        </Text>
      </div>
      {features.length === 0 ? (
        <Text size="sm">
          <Trans>This plan includes no features yet.</Trans>
        </Text>
      ) : (
        <Card withBorder padding="md">
          <ResponsiveTable
            what={t`Features`}
            labelledBy={headingId}
            columns={columns()}
            rows={features}
            rowKey={(feature) => feature.feature_id}
            minWidth={640}
          />
        </Card>
      )}
    </Stack>
  );
}
