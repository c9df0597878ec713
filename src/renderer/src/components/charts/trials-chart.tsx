import '@mantine/charts/styles.layer.css';
import { CompositeChart } from '@mantine/charts';

export interface TrialsChartProps {
  /** One row per period: its label, trials started and converted, and the conversion in percent (null: none started). */
  rows: Array<{ label: string; started: number; converted: number; rate: number | null }>;
  height: number;
}

const count = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * Trials per period as two bars (started, converted) on the left axis, and the conversion rate as
 * a line on a right axis in percent.
 */
export default function TrialsChart({ rows, height }: TrialsChartProps) {
  return (
    <CompositeChart
      h={height}
      data={rows}
      dataKey="label"
      series={[
        { name: 'started', label: 'Started', color: 'iris.6', type: 'bar' },
        { name: 'converted', label: 'Converted', color: 'teal.6', type: 'bar' },
        { name: 'rate', label: 'Conversion (%)', color: 'orange.6', type: 'line', yAxisId: 'right' },
      ]}
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 36 }}
      withRightYAxis
      rightYAxisProps={{ domain: [0, 100], width: 44, tickFormatter: (value: number) => `${value}%` }}
      yAxisProps={{ width: 40, allowDecimals: false }}
      tickLine="none"
      gridAxis="y"
      maxBarWidth={16}
      connectNulls={false}
      xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
      valueFormatter={(value) => count.format(value)}
    />
  );
}
