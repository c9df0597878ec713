import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One line of a price quote, in a `<dl>`: the label on the left, the amount on the right; `strong` for the total. */
export function QuoteRow({
  label,
  children,
  strong = false,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md" align="baseline">
      <Text component="dt" size="sm" c={strong ? undefined : 'dimmed'} fw={strong ? 600 : undefined}>
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" fw={strong ? 700 : 500} ta="right">
        {children}
      </Text>
    </Group>
  );
}
