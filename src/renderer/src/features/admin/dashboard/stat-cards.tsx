import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
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

function UserDetails({ users }: { users: DashboardStats['users'] }) {
  const { t } = useLingui();
  const active = formatCount(users.active);
  const unconfirmed = formatCount(users.unconfirmed);
  const disabled = formatCount(users.disabled);
  const admins = users.admins;
  const fresh = formatCount(users.new_last_30_days);
  return (
    <>
      <Detail>
        {t`${active} active · ${unconfirmed} unconfirmed · ${disabled} disabled · ${plural(admins, { one: '# admin', other: '# admins' })}`}
      </Detail>
      <Detail>{t`${fresh} new in the last 30 days`}</Detail>
    </>
  );
}

function LicenseDetails({ licenses }: { licenses: DashboardStats['licenses'] }) {
  const { t } = useLingui();
  const total = licenses.total;
  const suspended = formatCount(licenses.by_status.suspended);
  const expired = formatCount(licenses.by_status.expired);
  return (
    <>
      <Detail>{t`${plural(total, { one: 'of # license issued', other: 'of # licenses issued' })}`}</Detail>
      <Detail>{t`${suspended} suspended · ${expired} expired`}</Detail>
    </>
  );
}

function PerpetualDetail({
  perpetual,
}: {
  perpetual: { update_window_open: number; update_window_lapsed: number };
}) {
  const { t } = useLingui();
  const open = formatCount(perpetual.update_window_open);
  const lapsed = formatCount(perpetual.update_window_lapsed);
  return <Detail>{t`Perpetual: ${open} getting updates · ${lapsed} with updates lapsed`}</Detail>;
}

function ActivationDetails({ activations }: { activations: DashboardStats['activations'] }) {
  const { t } = useLingui();
  const machines = activations.active;
  const recent = formatCount(activations.last_24h);
  return (
    <>
      <Detail>{t`${plural(machines, { one: 'machine holding a seat', other: 'machines holding a seat' })}`}</Detail>
      <Detail>{t`${recent} activated in the last 24 hours`}</Detail>
    </>
  );
}

/** The four headline numbers: accounts, licenses, machines and revenue. */
export function StatCards({ stats }: { stats: DashboardStats | null }) {
  const { t } = useLingui();
  const loading = stats === null;
  const payments = stats?.revenue.totals.reduce((sum, total) => sum + total.payments, 0) ?? 0;
  const perpetual = stats?.licenses.perpetual ?? { update_window_open: 0, update_window_lapsed: 0 };
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <StatCard label={t`Users`} icon={<UsersIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{formatCount(stats.users.total)}</Figure>
            <UserDetails users={stats.users} />
          </>
        )}
      </StatCard>
      <StatCard label={t`Active licenses`} icon={<KeyIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{formatCount(stats.licenses.active)}</Figure>
            <LicenseDetails licenses={stats.licenses} />
            {perpetual.update_window_open + perpetual.update_window_lapsed > 0 && (
              <PerpetualDetail perpetual={perpetual} />
            )}
          </>
        )}
      </StatCard>
      <StatCard label={t`Activations`} icon={<DeviceIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{formatCount(stats.activations.active)}</Figure>
            <ActivationDetails activations={stats.activations} />
          </>
        )}
      </StatCard>
      <StatCard label={t`Revenue`} icon={<CardIcon size={18} />} loading={loading}>
        {stats && (
          <>
            <Figure>{totalsText(stats.revenue.totals)}</Figure>
            <Detail>
              {t`net of refunds, all time, from ${plural(payments, { one: '# paid payment', other: '# paid payments' })}`}
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
