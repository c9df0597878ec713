import { Card, Stack, Text, Title } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import type { Column } from '../../../components/data-table/columns';
import { ResponsiveTable } from '../../../components/data-table/responsive-table';
import { StatusBadge } from '../../../components/data/status-badge';
import { formatNumber, limitText } from '../license-format';

const COLUMNS: Column<FeatureUsage>[] = [
  {
    key: 'feature',
    header: 'Feature',
    render: (feature) => (
      <>
        <Text size="sm" fw={600}>
          {feature.name}
        </Text>
        <Text size="xs" c="dimmed">
          {feature.kind === 'metered' ? 'Metered' : 'On/off'}
        </Text>
      </>
    ),
  },
  {
    key: 'availability',
    header: 'Availability',
    render: (feature) => (
      <>
        <StatusBadge tone={feature.available ? 'positive' : 'negative'} size="md">
          {feature.available ? 'Available' : 'Unavailable'}
        </StatusBadge>
        {feature.available ? null : (
          <Text size="xs" c="dimmed" mt={4}>
            {feature.message}
          </Text>
        )}
      </>
    ),
  },
  { key: 'limit', header: 'Limit', render: (feature) => <Text size="sm">{limitText(feature)}</Text> },
  {
    key: 'used',
    header: 'Used this period',
    render: (feature) => (
      <Text size="sm">{feature.kind === 'metered' ? formatNumber(feature.used) : '—'}</Text>
    ),
  },
  {
    key: 'remaining',
    header: 'Remaining',
    render: (feature) => (
      <Text size="sm">
        {feature.kind !== 'metered'
          ? '—'
          : feature.remaining === null
            ? 'Unlimited'
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
  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <div>
        <Title order={2} size="h3" id={headingId}>
          Features
        </Title>
        <Text size="sm" c="dimmed">
          What this license includes and whether each feature can be used now.
        </Text>
      </div>
      {features.length === 0 ? (
        <Text size="sm">This plan includes no features yet.</Text>
      ) : (
        <Card withBorder padding="md">
          <ResponsiveTable
            what="Features"
            labelledBy={headingId}
            columns={COLUMNS}
            rows={features}
            rowKey={(feature) => feature.feature_id}
            minWidth={640}
          />
        </Card>
      )}
    </Stack>
  );
}
