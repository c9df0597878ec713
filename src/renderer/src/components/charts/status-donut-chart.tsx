import '@mantine/charts/styles.layer.css';
import { useLingui } from '@lingui/react/macro';
import { DonutChart } from '@mantine/charts';
import { Group, Stack, Text } from '@mantine/core';
import { numberFormat } from '../../lib/number-format';

export interface StatusDonutChartProps {
  data: Array<{ name: string; value: number; color: string }>;
  /** The number in the middle (e.g. the total). */
  centerLabel: string;
  size?: number;
}

/** Parts of a whole as a donut with a legend beside it (names and counts, readable without colour). */
export default function StatusDonutChart({ data, centerLabel, size = 160 }: StatusDonutChartProps) {
  const { t } = useLingui();
  const number = numberFormat();
  const shown = data.filter((item) => item.value > 0);
  return (
    <Group gap="lg" justify="center" wrap="wrap" align="center">
      <DonutChart
        data={shown.length ? shown : [{ name: t`None`, value: 1, color: 'gray.3' }]}
        size={size}
        thickness={22}
        withTooltip={shown.length > 0}
        tooltipDataSource="segment"
        chartLabel={centerLabel}
        paddingAngle={shown.length > 1 ? 2 : 0}
        strokeWidth={0}
        valueFormatter={(value) => number.format(value)}
      />
      <Stack gap={6} aria-hidden="true">
        {data.map((item) => (
          <Group key={item.name} gap={8} wrap="nowrap">
            <span
              style={{
                width: 10,
                height: 10,
                borderRadius: 3,
                background: `var(--mantine-color-${item.color.replace('.', '-')})`,
                flex: 'none',
              }}
            />
            <Text size="sm" miw={80}>
              {item.name}
            </Text>
            <Text size="sm" fw={600}>
              {number.format(item.value)}
            </Text>
          </Group>
        ))}
      </Stack>
    </Group>
  );
}
