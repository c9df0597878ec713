import { Anchor } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { portalPaths } from '../../../../../shared/routes';
import { ChartPanel } from '../../../components/charts/chart-panel';
import { StatusDonutChart } from '../../../components/charts/lazy-charts';
import { formatCount, licenseStatusData, listSentence } from './dashboard-data';

/** Licenses by effective status as a donut with its legend. */
export function LicenseStatusPanel({ licenses }: { licenses: DashboardStats['licenses'] }) {
  const data = licenseStatusData(licenses.by_status);
  const summary =
    licenses.total === 0
      ? 'No licenses issued yet.'
      : `${formatCount(licenses.total)} license${licenses.total === 1 ? '' : 's'}: ${listSentence(
          data.map((item) => `${formatCount(item.value)} ${item.name.toLowerCase()}`),
        )}.`;
  return (
    <ChartPanel
      title="Licenses by status"
      summary={summary}
      height={160}
      table={{
        headers: ['Status', 'Licenses'],
        rows: data.map((item) => [item.name, formatCount(item.value)]),
      }}
      footer={
        <Anchor component={Link} to={portalPaths.adminLicenses} size="sm" fw={600} mt="auto">
          Manage licenses
        </Anchor>
      }
    >
      <StatusDonutChart data={data} centerLabel={formatCount(licenses.total)} />
    </ChartPanel>
  );
}
