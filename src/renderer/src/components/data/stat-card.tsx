import { Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { type ReactNode, useId } from 'react';

export interface StatCardProps {
  /** What the number is: also the card's accessible name. */
  label: string;
  icon?: ReactNode;
  /** Shows skeletons instead of the value while the data loads. */
  loading?: boolean;
  children: ReactNode;
}

/** A dashboard tile: a label, a prominent value and its details, or skeletons while loading. */
export function StatCard({ label, icon, loading = false, children }: StatCardProps) {
  const labelId = useId();
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby={labelId}
      aria-busy={loading || undefined}
      h="100%"
    >
      <Stack gap="sm" h="100%">
        <Group gap="xs" wrap="nowrap" c="dimmed">
          {icon}
          <Text id={labelId} component="h2" size="sm" fw={600} c="dimmed" m={0}>
            {label}
          </Text>
        </Group>
        {loading ? (
          <Stack gap="xs" aria-hidden="true">
            <Skeleton height={28} width="60%" />
            <Skeleton height={12} width="85%" />
            <Skeleton height={12} width="45%" />
          </Stack>
        ) : (
          children
        )}
      </Stack>
    </Card>
  );
}
