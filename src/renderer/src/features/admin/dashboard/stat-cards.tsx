import { SimpleGrid, Text } from '@mantine/core';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { CardIcon, DeviceIcon, KeyIcon, UsersIcon } from '../../../components/brand/icons';
import { StatCard } from '../../../components/data/stat-card';
import { formatCount, grossAndRefundedText, totalsText } from './dashboard-data';

function Figure({ children }: { children: React.ReactNode }) {
  return (
    <Text fz={28} fw={700} lh={1.1}>
      {children}
    </Text>
  );
}

function Detail({ children }: { children: React.ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

/** The four headline numbers: accounts, licenses, machines and revenue. */
export function StatCards({ stats }: { stats: DashboardStats | null }) {
  const loading = stats === null;
  const payments = stats?.revenue.totals.reduce((sum, total) => sum + total.payments, 0) ?? 0;
  const perpetual = stats?.licenses.perpetual ?? { update_window_open: 0, update_window_lapsed: 0 };
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <StatCard label="Users" icon={<UsersIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{formatCount(stats.users.total)}</Figure>
            <Detail>
              {formatCount(stats.users.active)} active · {formatCount(stats.users.unconfirmed)} unconfirmed ·{' '}
              {formatCount(stats.users.disabled)} disabled · {formatCount(stats.users.admins)} admin
              {stats.users.admins === 1 ? '' : 's'}
            </Detail>
            <Detail>{formatCount(stats.users.new_last_30_days)} new in the last 30 days</Detail>
          </>
        )}
      </StatCard>
      <StatCard label="Active licenses" icon={<KeyIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{formatCount(stats.licenses.active)}</Figure>
            <Detail>
              of {formatCount(stats.licenses.total)} license{stats.licenses.total === 1 ? '' : 's'} issued
            </Detail>
            <Detail>
              {formatCount(stats.licenses.by_status.suspended)} suspended ·{' '}
              {formatCount(stats.licenses.by_status.expired)} expired
            </Detail>
            {perpetual.update_window_open + perpetual.update_window_lapsed > 0 && (
              <Detail>
                Perpetual: {formatCount(perpetual.update_window_open)} getting updates ·{' '}
                {formatCount(perpetual.update_window_lapsed)} with updates lapsed
              </Detail>
            )}
          </>
        )}
      </StatCard>
      <StatCard label="Activations" icon={<DeviceIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{formatCount(stats.activations.active)}</Figure>
            <Detail>machine{stats.activations.active === 1 ? '' : 's'} holding a seat</Detail>
            <Detail>{formatCount(stats.activations.last_24h)} activated in the last 24 hours</Detail>
          </>
        )}
      </StatCard>
      <StatCard label="Revenue" icon={<CardIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{totalsText(stats.revenue.totals)}</Figure>
            <Detail>
              net of refunds, all time, from {formatCount(payments)} paid payment{payments === 1 ? '' : 's'}
            </Detail>
            {grossAndRefundedText(stats.revenue.totals) ? (
              <Detail>{grossAndRefundedText(stats.revenue.totals)}</Detail>
            ) : null}
          </>
        )}
      </StatCard>
    </SimpleGrid>
  );
}
