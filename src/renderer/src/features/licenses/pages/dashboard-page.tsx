import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';
import type { FeatureUsage } from '../../../../../shared/api/licenses';
import type { Plan } from '../../../../../shared/api/plans';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { PageHeader } from '../../../components/layout/page-header';
import {
  ArrowRightIcon,
  CartIcon,
  ChartIcon,
  DeviceIcon,
  DownloadIcon,
  KeyIcon,
  SparkIcon,
} from '../../../components/brand/icons';
import { LoadingBlock } from '../../../components/data/loading-block';
import { RetryNotice } from '../../../components/data/retry-notice';
import { StatCard } from '../../../components/data/stat-card';
import { failureMessage } from '../../../lib/api-errors';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import { formatPlanPrice } from '../../plans';
import { BaseLicenseOffer } from '../components/base-license-offer';
import { LicensesLoadFailure } from '../components/licenses-load-failure';
import { FeatureUsageMeter } from '../components/feature-usage-meter';
import { LicenseSummaryList } from '../components/license-summary-list';
import { SeatMeter } from '../components/seat-meter';
import { ThisMachineTile } from '../components/this-machine-tile';
import { SERIES_COLORS, UsageChart } from '../components/usage-chart';
import {
  type LicenseRecord,
  useCheckLicenseStatusQuery,
  useGetCurrentPlanQuery,
  useGetLicenseUsageQuery,
  useListMyLicensesQuery,
} from '../licenses-endpoints';
import { expiryText, isLicense, isMetered } from '../license-format';
import { byRelevance, listState } from '../license-list';
import { selectLicenses, selectLicenseStatus } from '../license-slice';
import { dailyUsage } from '../usage-history';
import { useLicenseFlags } from '../use-license-flags';

/** Days of daily usage the dashboard charts. */
const DASHBOARD_USAGE_DAYS = 30;

function CurrentPlanTile({
  plan,
  license,
  loading,
}: {
  plan: Plan | null;
  license: LicenseRecord | null;
  loading: boolean;
}) {
  const { t } = useLingui();
  const price = plan ? formatPlanPrice(plan) : null;
  return (
    <StatCard label={t`Current plan`} icon={<SparkIcon size={18} />} loading={loading}>
      <Stack gap={4} style={{ flex: 1 }}>
        <Text fz={26} fw={700} lh={1.2} data-testid="current-plan-name">
          {plan?.name ?? license?.plan.name ?? t`No active plan`}
        </Text>
        {price ? (
          <Text size="sm" c="dimmed">
            {price.amount} · {price.period}
          </Text>
        ) : null}
        {license ? <Text size="sm">{expiryText(license)}</Text> : null}
      </Stack>
      <Anchor component={Link} to={portalPaths.purchase} size="sm" fw={600}>
        <Trans>Compare plans</Trans>
      </Anchor>
    </StatCard>
  );
}

function SeatsTile({ license, loading }: { license: LicenseRecord | null; loading: boolean }) {
  const { t } = useLingui();
  const used = license?.activations_used;
  const allowed = license?.max_activations;
  return (
    <StatCard label={t`Seats`} icon={<DeviceIcon size={18} />} loading={loading}>
      {license ? (
        <>
          <Stack gap="xs" style={{ flex: 1 }}>
            <Text fz={26} fw={700} lh={1.2} data-testid="seats-summary">
              <Trans>
                {used} of {allowed}
              </Trans>
            </Text>
            <SeatMeter used={license.activations_used} allowed={license.max_activations} />
          </Stack>
          <Anchor
            component={Link}
            to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
            size="sm"
            fw={600}
          >
            <Trans>Manage machines</Trans>
          </Anchor>
        </>
      ) : (
        <Text size="sm">
          <Trans>No license, so no seats yet.</Trans>
        </Text>
      )}
    </StatCard>
  );
}

function UsageSection({
  features,
  history,
  state,
  error,
  onRetry,
}: {
  features: FeatureUsage[];
  history: Parameters<typeof dailyUsage>[0];
  state: 'loading' | 'ready' | 'failed';
  error?: string;
  onRetry(): void;
}) {
  const { t } = useLingui();
  const metered = features.filter(isMetered);
  const days = DASHBOARD_USAGE_DAYS;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="usage-title">
      <Stack gap="lg">
        <Group gap="xs">
          <ChartIcon size={20} />
          <Title order={2} size="h3" id="usage-title">
            <Trans>Usage this period</Trans>
          </Title>
        </Group>
        {state === 'loading' ? (
          <LoadingBlock label={t`Loading usage`}>
            <Stack gap="md">
              <Skeleton height={44} />
              <Skeleton height={44} />
              <Skeleton height={220} />
            </Stack>
          </LoadingBlock>
        ) : state === 'failed' ? (
          <RetryNotice title={t`Could not load usage`} message={error} onRetry={onRetry} />
        ) : metered.length === 0 ? (
          <Text size="sm">
            <Trans>Your plan has no metered features: nothing counts against a limit.</Trans>
          </Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              {metered.map((feature) => (
                <FeatureUsageMeter key={feature.feature_id} feature={feature} />
              ))}
            </SimpleGrid>
            <UsageChart
              caption={t`Daily use over the last ${days} days`}
              showCaption
              data={dailyUsage(history, metered, DASHBOARD_USAGE_DAYS)}
              series={metered.map((feature, index) => ({
                name: feature.key,
                label: feature.name,
                color: SERIES_COLORS[index % SERIES_COLORS.length] as string,
              }))}
            />
          </>
        )}
      </Stack>
    </Card>
  );
}

interface QuickAction {
  title: string;
  text: string;
  to: string;
  label: string;
  icon: ComponentType<{ size?: number }>;
}

function QuickActions({ actions }: { actions: QuickAction[] }) {
  return (
    <Stack gap="md" component="section" aria-labelledby="quick-actions-title">
      <Title order={2} size="h3" id="quick-actions-title">
        <Trans>Quick actions</Trans>
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {actions.map((action) => (
          <Card key={action.label} withBorder p="lg">
            <Stack gap="sm" h="100%" justify="space-between">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size={36} radius="md" aria-hidden="true">
                  <action.icon size={20} />
                </ThemeIcon>
                <div>
                  <Text fw={600}>{action.title}</Text>
                  <Text size="sm" c="dimmed">
                    {action.text}
                  </Text>
                </div>
              </Group>
              <Button
                component={Link}
                to={action.to}
                variant="light"
                rightSection={<ArrowRightIcon size={16} />}
                style={{ alignSelf: 'flex-start' }}
              >
                {action.label}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/**
 * /dashboard: plan, this machine (activated here or not, and activation), seats, the licenses
 * with their own status and flags, usage this period and quick actions.
 */
export default function DashboardPage() {
  const { t } = useLingui();
  const user = useAppSelector(selectCurrentUser);
  const check = useAppSelector(selectLicenseStatus);
  const list = useListMyLicensesQuery();
  const stored = useAppSelector(selectLicenses);
  const current = useGetCurrentPlanQuery();
  // This machine is checked on each visit.
  const { isFetching: checking } = useCheckLicenseStatusQuery(undefined, { refetchOnMountOrArgChange: true });
  const load = listState(list);
  const licenses: LicenseRecord[] = load.status === 'ready' && Array.isArray(stored) ? stored : [];
  const currentLicense = isLicense(current.data?.license) ? current.data.license : null;
  const currentPlan: Plan | null = current.data?.plan ?? null;
  const flags = useLicenseFlags(licenses);
  const sorted = [...licenses].sort(byRelevance);

  // The license the dashboard is about: the one giving the current plan, else the newest one held.
  const featured: LicenseRecord | null =
    currentLicense ?? [...licenses].sort((a, b) => b.created_at.localeCompare(a.created_at))[0] ?? null;
  const usage = useGetLicenseUsageQuery(
    { licenseId: featured?.license_id ?? '', days: DASHBOARD_USAGE_DAYS },
    { skip: !featured },
  );

  const firstName = user?.full_name?.trim().split(/\s+/)[0];
  const loading = load.status === 'loading' || current.isLoading;
  const noLicense = load.status === 'ready' && licenses.length === 0;

  const detailPath = featured
    ? pathWith(portalPaths.licenseDetail, { licenseId: featured.license_id })
    : null;
  const actions: QuickAction[] = [
    noLicense
      ? {
          title: t`Activate this machine`,
          text: t`Use a license here with its key.`,
          to: portalPaths.licenses,
          label: t`Activate this machine`,
          icon: KeyIcon,
        }
      : {
          title: t`Keys and seats`,
          text: t`Each license’s key, its seats and the machines that use them.`,
          to: portalPaths.licenses,
          label: t`Manage licenses`,
          icon: KeyIcon,
        },
    {
      title: t`Get the desktop app`,
      text: t`Installers for Windows, macOS and Linux, checked by SHA-256.`,
      to: detailPath ? `${detailPath}#downloads` : portalPaths.licenses,
      label: t`Download the app`,
      icon: DownloadIcon,
    },
    {
      title: t`More seats and higher limits`,
      text: t`Compare plans and upgrade in a few clicks.`,
      to: portalPaths.purchase,
      label: t`Upgrade plan`,
      icon: CartIcon,
    },
  ];

  const usageState = usage.isError
    ? 'failed'
    : usage.currentData
      ? 'ready'
      : usage.isFetching || loading
        ? 'loading'
        : 'ready';
  const usageValue = usage.currentData ?? null;

  return (
    <Stack gap="xl" maw={1080}>
      <PageHeader
        title={t`Dashboard`}
        description={
          firstName
            ? t`Welcome back, ${firstName}. Your plan, license, seats and usage at a glance.`
            : t`Your plan, license, seats and usage at a glance.`
        }
      />

      <LicensesLoadFailure load={load} onRetry={() => void list.refetch()} />

      {noLicense ? (
        <BaseLicenseOffer
          hasLicenses={false}
          footnote={
            <Trans>
              Have a key already?{' '}
              <Anchor component={Link} to={portalPaths.licenses} size="xs" underline="always">
                Activate it on the Licenses page
              </Anchor>
              .
            </Trans>
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            <CurrentPlanTile plan={currentPlan} license={featured} loading={loading} />
            <ThisMachineTile
              check={check}
              checking={checking}
              licenses={sorted}
              loading={load.status === 'loading'}
            />
            <SeatsTile license={featured} loading={loading} />
          </SimpleGrid>
          {licenses.length > 0 ? <LicenseSummaryList licenses={sorted} check={check} flags={flags} /> : null}
          <UsageSection
            features={usageValue?.usage_info.features ?? featured?.usage_info.features ?? []}
            history={usageValue?.history ?? []}
            state={usageState}
            error={usage.isError ? failureMessage(usage.error, licenseMessages.fetchUsageFailed) : undefined}
            onRetry={() => void usage.refetch()}
          />
        </>
      )}

      <QuickActions actions={actions} />
    </Stack>
  );
}
