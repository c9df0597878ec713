import '@mantine/charts/styles.layer.css';
import { CompositeChart } from '@mantine/charts';
import { ColorSwatch, Group, Text } from '@mantine/core';

export interface TrialsChartProps {
  /** One row per period: its label, trials started and converted, and the conversion in percent (null: none started). */
  rows: Array<{ label: string; started: number; converted: number; rate: number | null }>;
  height: number;
}

const SERIES = [
  { name: 'started', label: 'Started', color: 'iris.6', type: 'bar' },
  { name: 'converted', label: 'Converted', color: 'teal.6', type: 'bar' },
  { name: 'rate', label: 'Conversion (%)', color: 'orange.6', type: 'line', yAxisId: 'right' },
] as const;

const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * Trials per period as two bars (started, converted) on the left axis, and the conversion rate as
 * a line on a right axis in percent; its own legend under it wraps on a phone.
 */
export default function TrialsChart({ rows, height }: TrialsChartProps) {
  return (
    <>
      <CompositeChart
        h={height}
        data={rows}
        dataKey="label"
        series={SERIES.map((series) => ({ ...series }))}
        curveType="linear"
        withRightYAxis
        rightYAxisProps={{
          domain: [0, 100],
          ticks: [0, 25, 50, 75, 100],
          width: 48,
          tickFormatter: (value: number) => `${value}%`,
        }}
        yAxisProps={{ width: 32, allowDecimals: false }}
        composedChartProps={{ margin: { top: 8, right: 0, bottom: 0, left: 0 } }}
        tickLine="none"
        maxBarWidth={16}
        connectNulls={false}
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
        valueFormatter={(value) => count.format(value)}
      />
      <Group gap="md" justify="center" aria-hidden="true">
        {SERIES.map((series) => (
          <Group key={series.name} gap={6} wrap="nowrap">
            <ColorSwatch
              size={10}
              color={`var(--mantine-color-${series.color.replace('.', '-')})`}
              withShadow={false}
            />
            <Text size="xs" c="dimmed">
              {series.label}
            </Text>
          </Group>
        ))}
      </Group>
    </>
  );
}
