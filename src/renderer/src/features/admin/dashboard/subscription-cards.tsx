import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { DashboardStats } from '../../../../../shared/api/admin';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, ChartIcon, RefreshIcon } from '../../../components/brand/icons';
import { StatCard } from '../../../components/data/stat-card';
import { numberFormat } from '../../../lib/number-format';
import { formatCount, formatMoney } from './dashboard-data';

type Subscriptions = DashboardStats['subscriptions'];

/** "16.7 %", or null when no subscription was live at the window's start. */
export const churnText = (churn: Subscriptions['churn']): string | null =>
  churn.rate === null
    ? null
    : numberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(churn.rate);

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
  const { t } = useLingui();
  const planned = formatCount(paused.planned);
  const now = formatCount(paused.now);
  const coming = paused.planned > 0 ? t` · ${planned} pausing when their period ends` : '';
  return (
    <Detail>
      {paused.now > 0 ? (
        <Anchor component={Link} to={`${portalPaths.adminSubscriptions}?status=paused`} inherit>
          {t`${now} paused now`}
        </Anchor>
      ) : (
        t`none paused now`
      )}
      {coming}
    </Detail>
  );
}

/** "2 of 12 live 30 days ago ended since", or why there is no rate. */
function churnDetail(churn: Subscriptions['churn'], rate: string | null): string {
  if (rate === null) return t`No subscription was live 30 days ago`;
  const ended = formatCount(churn.ended);
  const live = formatCount(churn.live_at_start);
  return t`${ended} of ${live} live 30 days ago ended since`;
}

function FailedDetail({ failed }: { failed: Subscriptions['failed_payments'] }) {
  const { t } = useLingui();
  const pastDue = formatCount(failed.past_due);
  const suspended = formatCount(failed.suspended);
  return <Detail>{t`${pastDue} past due · ${suspended} suspended now`}</Detail>;
}

/** Recurring revenue at a glance: MRR per currency, active subscriptions, churn and failed payments. */
export function SubscriptionCards({ subscriptions }: { subscriptions: Subscriptions | null }) {
  const { t } = useLingui();
  const loading = subscriptions === null;
  const churn = subscriptions ? churnText(subscriptions.churn) : null;
  const billed = subscriptions?.mrr.reduce((sum, entry) => sum + entry.subscriptions, 0) ?? 0;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md">
      <StatCard label={t`Monthly recurring revenue`} icon={<ChartIcon size={18} />} loading={loading}>
        {subscriptions &&
          (subscriptions.mrr.length === 0 ? (
            <>
              <Figure>
                <Trans>None yet</Trans>
              </Figure>
              <Detail>
                <Trans>No active or past-due subscription</Trans>
              </Detail>
            </>
          ) : (
            <>
              <Stack gap={2}>
                {subscriptions.mrr.map((entry) => (
                  <Figure key={entry.currency}>{formatMoney(entry.amount_minor, entry.currency)}</Figure>
                ))}
              </Stack>
              <Detail>
                {t`a month, from ${plural(billed, { one: '# subscription billed (yearly ones count a twelfth)', other: '# subscriptions billed (yearly ones count a twelfth)' })}`}
              </Detail>
            </>
          ))}
      </StatCard>
      <StatCard label={t`Active subscriptions`} icon={<RefreshIcon size={18} />} loading={loading}>
        {subscriptions && (
          <>
            <Figure>{formatCount(subscriptions.active)}</Figure>
            <Detail>
              <Trans>paid up now</Trans>
            </Detail>
            <PausedDetail paused={subscriptions.paused} />
            <Anchor component={Link} to={portalPaths.adminSubscriptions} size="sm" fw={600} mt="auto">
              <Trans>Manage subscriptions</Trans>
            </Anchor>
          </>
        )}
      </StatCard>
      <StatCard label={t`Churn, last 30 days`} icon={<ChartIcon size={18} />} loading={loading}>
        {subscriptions && (
          <>
            <Figure>{churn ?? t`None`}</Figure>
            <Detail>{churnDetail(subscriptions.churn, churn)}</Detail>
          </>
        )}
      </StatCard>
      <StatCard label={t`Failed payments`} icon={<AlertIcon size={18} />} loading={loading}>
        {subscriptions && (
          <>
            <Figure>{formatCount(subscriptions.failed_payments.last_30_days)}</Figure>
            <Detail>
              <Trans>subscription charges failed in the last 30 days</Trans>
            </Detail>
            <FailedDetail failed={subscriptions.failed_payments} />
            {subscriptions.failed_payments.past_due > 0 ? (
              <Anchor
                component={Link}
                to={`${portalPaths.adminSubscriptions}?status=past_due`}
                size="sm"
                fw={600}
                mt="auto"
              >
                <Trans>View the past-due subscriptions</Trans>
              </Anchor>
            ) : null}
          </>
        )}
      </StatCard>
    </SimpleGrid>
  );
}
