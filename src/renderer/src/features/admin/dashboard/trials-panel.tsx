import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Text } from '@mantine/core';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { ChartPanel } from '../../../components/charts/chart-panel';
import { TrialsChart } from '../../../components/charts/lazy-charts';
import { trialsChartData, trialsSummary } from './dashboard-data';
import classes from './dashboard.module.css';

const HEIGHT = 240;

/**
 * Free trials per month over the last 12: started and converted (bought since) as bars, the
 * conversion rate as a line. A trial counts in the month it started, wherever it was bought.
 */
export function TrialsPanel({ trials }: { trials: DashboardStats['trials'] }) {
  const { t } = useLingui();
  const data = trialsChartData(trials);
  return (
    <ChartPanel
      title={t`Trials, last 12 months`}
      summary={trialsSummary(trials)}
      height={HEIGHT}
      table={{ headers: [t`Month`, t`Started`, t`Converted`, t`Conversion rate`], rows: data.table }}
    >
      {trials.started === 0 ? (
        <Center h={HEIGHT} className={classes.placeholder}>
          <Text size="sm" c="dimmed" ta="center" maw={340}>
            <Trans>
              No free trials yet. They show here once a package offers trial days and customers start one.
            </Trans>
          </Text>
        </Center>
      ) : (
        <TrialsChart rows={data.rows} height={HEIGHT} />
      )}
    </ChartPanel>
  );
}
