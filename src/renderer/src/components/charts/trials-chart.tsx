import '@mantine/charts/styles.layer.css';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CompositeChart } from '@mantine/charts';
import { ColorSwatch, Group, Text } from '@mantine/core';
import { numberFormat } from '../../lib/number-format';

export interface TrialsChartProps {
  /** One row per period: its label, trials started and converted, and the conversion in percent (null: none started). */
  rows: Array<{ label: string; started: number; converted: number; rate: number | null }>;
  height: number;
}

const SERIES = [
  { name: 'started', label: msg`Started`, color: 'iris.6', type: 'bar' },
  { name: 'converted', label: msg`Converted`, color: 'teal.6', type: 'bar' },
  { name: 'rate', label: msg`Conversion (%)`, color: 'orange.6', type: 'line', yAxisId: 'right' },
] as const;

/**
 * Trials per period as two bars (started, converted) on the left axis, and the conversion rate as
 * a line on a right axis in percent; its own legend under it wraps on a phone.
 */
export default function TrialsChart({ rows, height }: TrialsChartProps) {
  const { i18n } = useLingui();
  const count = numberFormat(undefined, { maximumFractionDigits: 1 });
  return (
    <>
      <CompositeChart
        h={height}
        data={rows}
        dataKey="label"
        series={SERIES.map((series) => ({ ...series, label: i18n._(series.label) }))}
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
              {i18n._(series.label)}
            </Text>
          </Group>
        ))}
      </Group>
    </>
  );
}
