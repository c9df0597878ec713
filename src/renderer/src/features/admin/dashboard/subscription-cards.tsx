import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, ChartIcon, RefreshIcon } from '../../../components/brand/icons';
import { StatCard } from '../../../components/data/stat-card';
import { formatCount, formatMoney } from './dashboard-data';

type Subscriptions = DashboardStats['subscriptions'];

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** "16.7 %", or null when no subscription was live at the window's start. */
export const churnText = (churn: Subscriptions['churn']): string | null =>
  churn.rate === null ? null : percent.format(churn.rate);

function Figure({ children }: { children: React.ReactNode }) {
  return (
    <Text fz={28} fw={700} lh={1.1} style={{ fontVariantNumeric: 'tabular-nums' }}>
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

/**
 * The paused ones beside the active: a paused subscription is not billed (so not in MRR); one with
 * a pause coming is active and billed until its paid period ends.
 */
function PausedDetail({ paused }: { paused: Subscriptions['paused'] }) {
  const coming = paused.planned > 0 ? ` · ${formatCount(paused.planned)} pausing when their period ends` : '';
  return (
    <Detail>
      {paused.now > 0 ? (
        <Anchor component={Link} to={`${portalPaths.adminSubscriptions}?status=paused`} inherit>
          {formatCount(paused.now)} paused now
        </Anchor>
      ) : (
        'none paused now'
      )}
      {coming}
    </Detail>
  );
}

/** Recurring revenue at a glance: MRR per currency, active subscriptions, churn and failed payments. */
export function SubscriptionCards({ subscriptions }: { subscriptions: Subscriptions | null }) {
  const loading = subscriptions === null;
  const churn = subscriptions ? churnText(subscriptions.churn) : null;
  const billed = subscriptions?.mrr.reduce((sum, entry) => sum + entry.subscriptions, 0) ?? 0;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <StatCard label="Monthly recurring revenue" icon={<ChartIcon size={18} />} loading={loading}>
        {subscriptions &&
          (subscriptions.mrr.length === 0 ? (
            <>
              <Figure>None yet</Figure>
              <Detail>No active or past-due subscription</Detail>
            </>
          ) : (
            <>
              <Stack gap={2}>
                {subscriptions.mrr.map((entry) => (
                  <Figure key={entry.currency}>{formatMoney(entry.amount_minor, entry.currency)}</Figure>
                ))}
              </Stack>
              <Detail>
                a month, from {formatCount(billed)} subscription{billed === 1 ? '' : 's'} billed (yearly ones
                count a twelfth)
              </Detail>
            </>
          ))}
      </StatCard>
      <StatCard label="Active subscriptions" icon={<RefreshIcon size={18} />} loading={loading}>
        {subscriptions && (
          <>
            <Figure>{formatCount(subscriptions.active)}</Figure>
            <Detail>paid up now</Detail>
            <PausedDetail paused={subscriptions.paused} />
            <Anchor component={Link} to={portalPaths.adminSubscriptions} size="sm" fw={600} mt="auto">
              Manage subscriptions
            </Anchor>
          </>
        )}
      </StatCard>
      <StatCard label="Churn, last 30 days" icon={<ChartIcon size={18} />} loading={loading}>
        {subscriptions && (
          <>
            <Figure>{churn ?? 'None'}</Figure>
            <Detail>
              {churn === null
                ? 'No subscription was live 30 days ago'
                : `${formatCount(subscriptions.churn.ended)} of ${formatCount(subscriptions.churn.live_at_start)} live 30 days ago ended since`}
            </Detail>
          </>
        )}
      </StatCard>
      <StatCard label="Failed payments" icon={<AlertIcon size={18} />} loading={loading}>
        {subscriptions && (
          <>
            <Figure>{formatCount(subscriptions.failed_payments.last_30_days)}</Figure>
            <Detail>subscription charges failed in the last 30 days</Detail>
            <Detail>
              {formatCount(subscriptions.failed_payments.past_due)} past due ·{' '}
              {formatCount(subscriptions.failed_payments.suspended)} suspended now
            </Detail>
            {subscriptions.failed_payments.past_due > 0 ? (
              <Anchor
                component={Link}
                to={`${portalPaths.adminSubscriptions}?status=past_due`}
                size="sm"
                fw={600}
                mt="auto"
              >
                View the past-due subscriptions
              </Anchor>
            ) : null}
          </>
        )}
      </StatCard>
    </SimpleGrid>
  );
}
