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
import type { LicenseCheckResult } from '../../../../../shared/bridge';
import { licenseMessages } from '../../../../../shared/messages';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { PageHeader } from '../../../components/layout/page-header';
import {
  ArrowRightIcon,
  CartIcon,
  ChartIcon,
  DeviceIcon,
  DownloadIcon,
  KeyIcon,
  ShieldIcon,
  SparkIcon,
} from '../../../components/brand/icons';
import { LoadingBlock } from '../../../components/data/loading-block';
import { RetryNotice } from '../../../components/data/retry-notice';
import { StatCard } from '../../../components/data/stat-card';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import { formatPlanPrice } from '../../plans';
import { BaseLicenseOffer } from '../components/base-license-offer';
import { LicensesLoadFailure } from '../components/licenses-load-failure';
import { FeatureUsageMeter } from '../components/feature-usage-meter';
import { LicenseStatusBadge } from '../components/license-status-badge';
import { SeatMeter } from '../components/seat-meter';
import { SERIES_COLORS, UsageChart } from '../components/usage-chart';
import {
  type LicenseRecord,
  useCheckLicenseStatusQuery,
  useGetCurrentPlanQuery,
  useGetLicenseUsageQuery,
  useListMyLicensesQuery,
} from '../license-endpoints';
import { expiryText, isLicense, isMetered } from '../license-format';
import { listState } from '../license-list';
import { selectLicenses, selectLicenseStatus } from '../license-slice';
import { dailyUsage } from '../usage-history';

/** Days of daily usage the dashboard charts. */
const DASHBOARD_USAGE_DAYS = 30;

/** This machine's check in words: valid or not, and the tone of its badge. */
function machineVerdict(result: LicenseCheckResult): { label: string; tone: StatusTone } {
  if (result.valid) return { label: result.offline ? 'Valid (offline)' : 'Valid', tone: 'positive' };
  if (result.status === 'not_configured') return { label: 'Not activated here', tone: 'neutral' };
  if (result.status === 'error') return { label: 'Not checked', tone: 'caution' };
  return { label: 'Not valid', tone: 'negative' };
}

function CurrentPlanTile({
  plan,
  license,
  loading,
}: {
  plan: Plan | null;
  license: LicenseRecord | null;
  loading: boolean;
}) {
  const price = plan ? formatPlanPrice(plan) : null;
  return (
    <StatCard label="Current plan" icon={<SparkIcon size={18} />} loading={loading}>
      <Stack gap={4} style={{ flex: 1 }}>
        <Text fz={26} fw={700} lh={1.2} data-testid="current-plan-name">
          {plan?.name ?? license?.plan.name ?? 'No active plan'}
        </Text>
        {price ? (
          <Text size="sm" c="dimmed">
            {price.amount} · {price.period}
          </Text>
        ) : null}
        {license ? <Text size="sm">{expiryText(license)}</Text> : null}
      </Stack>
      <Anchor component={Link} to={portalPaths.purchase} size="sm" fw={600}>
        Compare plans
      </Anchor>
    </StatCard>
  );
}

function StatusTile({
  license,
  check,
  checking,
}: {
  license: LicenseRecord | null;
  check: LicenseCheckResult | null;
  checking: boolean;
}) {
  const verdict = check ? machineVerdict(check) : null;
  return (
    <StatCard label="License status" icon={<ShieldIcon size={18} />} loading={checking && !check}>
      <Stack gap={6} style={{ flex: 1 }}>
        <Group gap="xs" wrap="wrap">
          {verdict ? (
            <StatusBadge tone={verdict.tone} data-testid="machine-verdict">
              {verdict.label}
            </StatusBadge>
          ) : null}
        </Group>
        {check ? (
          <Text size="sm" data-testid="license-status-message" aria-live="polite">
            {check.message}
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          Checked for this machine.
        </Text>
        {license ? (
          <Group gap={6} wrap="wrap">
            <Text size="sm">{license.plan.name} license:</Text>
            <LicenseStatusBadge status={license.status} size="sm" />
          </Group>
        ) : null}
      </Stack>
      {check && !check.valid ? (
        <Anchor component={Link} to={portalPaths.licenses} size="sm" fw={600}>
          Activate this machine
        </Anchor>
      ) : null}
    </StatCard>
  );
}

function SeatsTile({ license, loading }: { license: LicenseRecord | null; loading: boolean }) {
  return (
    <StatCard label="Seats" icon={<DeviceIcon size={18} />} loading={loading}>
      {license ? (
        <>
          <Stack gap="xs" style={{ flex: 1 }}>
            <Text fz={26} fw={700} lh={1.2} data-testid="seats-summary">
              {license.activations_used} of {license.max_activations}
            </Text>
            <SeatMeter used={license.activations_used} allowed={license.max_activations} />
          </Stack>
          <Anchor
            component={Link}
            to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
            size="sm"
            fw={600}
          >
            Manage machines
          </Anchor>
        </>
      ) : (
        <Text size="sm">No license, so no seats yet.</Text>
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
  const metered = features.filter(isMetered);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="usage-title">
      <Stack gap="lg">
        <Group gap="xs">
          <ChartIcon size={20} />
          <Title order={2} size="h3" id="usage-title">
            Usage this period
          </Title>
        </Group>
        {state === 'loading' ? (
          <LoadingBlock label="Loading usage">
            <Stack gap="md">
              <Skeleton height={44} />
              <Skeleton height={44} />
              <Skeleton height={220} />
            </Stack>
          </LoadingBlock>
        ) : state === 'failed' ? (
          <RetryNotice title="Could not load usage" message={error} onRetry={onRetry} />
        ) : metered.length === 0 ? (
          <Text size="sm">Your plan has no metered features: nothing counts against a limit.</Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              {metered.map((feature) => (
                <FeatureUsageMeter key={feature.feature_id} feature={feature} />
              ))}
            </SimpleGrid>
            <UsageChart
              caption={`Daily use over the last ${DASHBOARD_USAGE_DAYS} days`}
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
        Quick actions
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

/** /dashboard: plan, license status, seats, usage this period and quick actions. */
export default function DashboardPage() {
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
    {
      title: 'Activate this machine',
      text: check?.valid
        ? 'This machine is activated. Add another with your license key.'
        : 'Use your license here with its key.',
      to: portalPaths.licenses,
      label: 'Activate this machine',
      icon: KeyIcon,
    },
    {
      title: 'Get the desktop app',
      text: 'Installers for Windows, macOS and Linux, checked by SHA-256.',
      to: detailPath ? `${detailPath}#downloads` : portalPaths.licenses,
      label: 'Download the app',
      icon: DownloadIcon,
    },
    {
      title: 'More seats and higher limits',
      text: 'Compare plans and upgrade in a few clicks.',
      to: portalPaths.purchase,
      label: 'Upgrade plan',
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
        title="Dashboard"
        description={`${firstName ? `Welcome back, ${firstName}. ` : ''}Your plan, license, seats and usage at a glance.`}
      />

      <LicensesLoadFailure load={load} onRetry={() => void list.refetch()} />

      {noLicense ? (
        <BaseLicenseOffer
          hasLicenses={false}
          footnote={
            <>
              Have a key already?{' '}
              <Anchor component={Link} to={portalPaths.licenses} size="xs" underline="always">
                Activate it on the Licenses page
              </Anchor>
              .
            </>
          }
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            <CurrentPlanTile plan={currentPlan} license={featured} loading={loading} />
            <StatusTile license={featured} check={check} checking={checking} />
            <SeatsTile license={featured} loading={loading} />
          </SimpleGrid>
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
