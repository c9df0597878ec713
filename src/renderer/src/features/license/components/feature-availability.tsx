import { Card, Stack, Table, Text, Title } from '@mantine/core';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import { ScrollRegion } from '../../../components/data-table/scroll-region';
import { StatusBadge } from '../../../components/data/status-badge';
import { formatNumber, limitText } from '../license-format';

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
          <ScrollRegion what="Features" minWidth={640}>
            <Table verticalSpacing="sm" aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Feature</Table.Th>
                  <Table.Th scope="col">Availability</Table.Th>
                  <Table.Th scope="col">Limit</Table.Th>
                  <Table.Th scope="col">Used this period</Table.Th>
                  <Table.Th scope="col">Remaining</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {features.map((feature) => (
                  <Table.Tr key={feature.feature_id}>
                    <Table.Th scope="row" fw={600}>
                      <Text size="sm" fw={600}>
                        {feature.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {feature.kind === 'metered' ? 'Metered' : 'On/off'}
                      </Text>
                    </Table.Th>
                    <Table.Td>
                      <StatusBadge tone={feature.available ? 'positive' : 'negative'} size="md">
                        {feature.available ? 'Available' : 'Unavailable'}
                      </StatusBadge>
                      {feature.available ? null : (
                        <Text size="xs" c="dimmed" mt={4}>
                          {feature.message}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{limitText(feature)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{feature.kind === 'metered' ? formatNumber(feature.used) : '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {feature.kind !== 'metered'
                          ? '—'
                          : feature.remaining === null
                            ? 'Unlimited'
                            : formatNumber(feature.remaining)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollRegion>
        </Card>
      )}
    </Stack>
  );
}
