import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { portalPaths } from '../../../../../shared/routes';
import { ChartPanel } from '../../../components/charts/chart-panel';
import { StatusDonutChart } from '../../../components/charts/lazy-charts';
import { formatCount, licenseStatusData, listSentence } from './dashboard-data';

/** Licenses by effective status as a donut with its legend. */
export function LicenseStatusPanel({ licenses }: { licenses: DashboardStats['licenses'] }) {
  const { t } = useLingui();
  const data = licenseStatusData(licenses.by_status);
  const total = licenses.total;
  const parts = listSentence(data.map((item) => item.counted));
  const summary =
    total === 0
      ? t`No licenses issued yet.`
      : t`${plural(total, { one: '# license', other: '# licenses' })}: ${parts}.`;
  return (
    <ChartPanel
      title={t`Licenses by status`}
      summary={summary}
      height={160}
      table={{
        headers: [t`Status`, t`Licenses`],
        rows: data.map((item) => [item.name, formatCount(item.value)]),
      }}
      footer={
        <Anchor component={Link} to={portalPaths.adminLicenses} size="sm" fw={600} mt="auto">
          <Trans>Manage licenses</Trans>
        </Anchor>
      }
    >
      <StatusDonutChart data={data} centerLabel={formatCount(licenses.total)} />
    </ChartPanel>
  );
}
