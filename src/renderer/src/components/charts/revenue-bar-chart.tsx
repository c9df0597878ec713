import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { numberFormat } from '../../lib/number-format';

export interface RevenueBarChartProps {
  rows: Array<Record<string, number | string>>;
  series: Array<{ name: string; label: string; color: string }>;
  height: number;
}

/** Revenue per period in major units, one bar series per currency (stacked when several). */
export default function RevenueBarChart({ rows, series, height }: RevenueBarChartProps) {
  return (
    <BarChart
      h={height}
      data={rows}
      dataKey="label"
      series={series}
      type={series.length > 1 ? 'stacked' : 'default'}
      withLegend={series.length > 1}
      legendProps={{ verticalAlign: 'bottom', height: 36 }}
      tickLine="none"
      gridAxis="y"
      maxBarWidth={24}
      xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 12 }}
      yAxisProps={{ width: 56 }}
      valueFormatter={(value) => numberFormat(undefined, { maximumFractionDigits: 2 }).format(value)}
    />
  );
}
