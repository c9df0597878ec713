import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { formatNumber } from '../license-format';
import type { UsagePoint } from '../usage-history';

export interface UsageBarChartProps {
  data: UsagePoint[];
  series: { name: string; label: string; color: string }[];
  height?: number;
  unit?: string;
}

/** Daily usage as bars (stacked when there are several features); loaded with the charts library. */
export default function UsageBarChart({ data, series, height = 220, unit }: UsageBarChartProps) {
  return (
    <BarChart
      h={height}
      data={data}
      dataKey="day"
      series={series}
      type={series.length > 1 ? 'stacked' : 'default'}
      withLegend={series.length > 1}
      legendProps={{ verticalAlign: 'bottom', height: 40 }}
      tickLine="none"
      gridAxis="x"
      maxBarWidth={28}
      xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
      yAxisProps={{
        allowDecimals: false,
        width: 44,
        tickFormatter: (value: number) => formatNumber(value),
      }}
      valueFormatter={(value) => `${formatNumber(value)}${unit ? ` ${unit}` : ''}`}
    />
  );
}
