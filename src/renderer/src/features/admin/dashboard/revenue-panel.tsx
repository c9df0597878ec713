import { Trans, useLingui } from '@lingui/react/macro';
import { Center, SegmentedControl, Text } from '@mantine/core';
import classes from './dashboard.module.css';
import { useState } from 'react';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { ChartPanel } from '../../../components/charts/chart-panel';
import { RevenueBarChart } from '../../../components/charts/lazy-charts';
import { type RevenueRange, revenueChartData, revenueSummary } from './dashboard-data';

const HEIGHT = 240;

/** Paid revenue per day (last 30) or month (last 12), per currency. */
export function RevenuePanel({ revenue }: { revenue: DashboardStats['revenue'] }) {
  const { t } = useLingui();
  const [range, setRange] = useState<RevenueRange>('days');
  const data = revenueChartData(range === 'days' ? revenue.by_day : revenue.by_month, revenue.totals);
  const currencies = data.series.map((series) => series.name);
  return (
    <ChartPanel
      title={range === 'days' ? t`Revenue, last 30 days` : t`Revenue, last 12 months`}
      summary={revenueSummary(data, range)}
      height={HEIGHT}
      actions={
        <SegmentedControl
          size="xs"
          aria-label={t`Revenue period`}
          value={range}
          onChange={(value) => setRange(value as RevenueRange)}
          data={[
            { value: 'days', label: t`30 days` },
            { value: 'months', label: t`12 months` },
          ]}
        />
      }
      table={{
        headers: [range === 'days' ? t`Day` : t`Month`, ...currencies],
        rows: data.table,
      }}
    >
      {currencies.length === 0 ? (
        <Center h={HEIGHT} className={classes.placeholder}>
          <Text size="sm" c="dimmed" ta="center" maw={320}>
            <Trans>No payments yet. Revenue shows here once customers buy a paid plan.</Trans>
          </Text>
        </Center>
      ) : (
        <RevenueBarChart rows={data.rows} series={data.series} height={HEIGHT} />
      )}
    </ChartPanel>
  );
}
