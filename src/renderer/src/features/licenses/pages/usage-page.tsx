import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, NativeSelect, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { portalPaths } from '../../../../../shared/routes';
import { EmptyStateCard } from '../../../components/data/empty-state-card';
import { LoadingBlock } from '../../../components/data/loading-block';
import { RetryNotice } from '../../../components/data/retry-notice';
import { PageHeader } from '../../../components/layout/page-header';
import { failureMessage } from '../../../lib/api-errors';
import { BuyCredits } from '../components/buy-credits';
import { LicensesLoadFailure } from '../components/licenses-load-failure';
import { MeteredFeatureCard } from '../components/metered-feature-card';
import { OrganisationShare } from '../components/organisation-share';
import { ThisMachineUsage } from '../components/this-machine-usage';
import { SERIES_COLORS } from '../components/usage-chart';
import { isMetered } from '../license-format';
import { byRelevance, listState } from '../license-list';
import { type LicenseRecord, useGetLicenseUsageQuery, useListMyLicensesQuery } from '../licenses-endpoints';
import { dailyUsage } from '../usage-history';
import { periodChartDays } from '../usage-overage';

/** The query parameter naming the license shown, so a license's usage can be linked to. */
const LICENSE_PARAM = 'license';

const hasMeteredFeatures = (license: LicenseRecord) => license.usage_info.features.some(isMetered);

/** "Pro license · Acme" or "Pro license · …WY4K5": tells apart two licenses of one plan. */
function licenseLabel(license: LicenseRecord): string {
  const plan = license.plan.name;
  if (license.organisation) {
    const organisation = license.organisation.name;
    return t`${plan} license · ${organisation}`;
  }
  const key = license.license_key.slice(-5);
  return license.license_key.includes('*') ? t`${plan} license` : t`${plan} license · …${key}`;
}

function UsageSkeletons({ label }: { label: string }) {
  return (
    <LoadingBlock label={label}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {[0, 1].map((item) => (
          <Card key={item} withBorder padding="lg">
            <Stack gap="md">
              <Skeleton height={22} width="40%" />
              <Skeleton height={12} />
              <Skeleton height={200} radius="md" />
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </LoadingBlock>
  );
}

/** One license's metered features this period, read from the server's daily rollups. */
function LicenseUsage({ license }: { license: LicenseRecord }) {
  // The chart covers the longest period of the license's features, so one read serves every card.
  const days = Math.max(
    ...license.usage_info.features.filter(isMetered).map((item) => periodChartDays(item)),
  );
  const { data, isError, error, refetch } = useGetLicenseUsageQuery({ licenseId: license.license_id, days });
  const { t } = useLingui();

  if (isError)
    return (
      <RetryNotice
        title={t`Could not load usage`}
        message={failureMessage(error, licenseMessages.fetchUsageFailed)}
        onRetry={() => void refetch()}
      />
    );
  if (!data) return <UsageSkeletons label={t`Loading usage`} />;
  const metered = data.usage_info.features.filter(isMetered);
  if (metered.length === 0)
    return (
      <Text size="sm">
        <Trans>This plan has no metered features: nothing counts against an allowance.</Trans>
      </Text>
    );
  const grid = (
    // One feature takes the width: its chart reads better wide than beside an empty column.
    <SimpleGrid cols={{ base: 1, md: metered.length > 1 ? 2 : 1 }} spacing="lg">
      {metered.map((feature, index) => (
        <MeteredFeatureCard
          key={feature.feature_id}
          feature={feature}
          currency={data.currency}
          outlook={data.overage.find((item) => item.feature_id === feature.feature_id)}
          packs={data.packs.filter((pack) => pack.feature_id === feature.feature_id)}
          points={dailyUsage(data.history, [feature], periodChartDays(feature))}
          chartColor={SERIES_COLORS[index % SERIES_COLORS.length] as string}
        />
      ))}
    </SimpleGrid>
  );
  if (!data.member_usage) return grid;
  return (
    <Stack gap="lg">
      <OrganisationShare own={data.member_usage} features={metered} />
      {grid}
    </Stack>
  );
}

/**
 * /usage: the AI work each metered feature of a license has used this period against its
 * allowance, what is left, when it resets, what use past it costs, and a chart of the days.
 */
export default function UsagePage() {
  const { t } = useLingui();
  const list = useListMyLicensesQuery();
  const load = listState(list);
  const [params, setParams] = useSearchParams();
  const licenses =
    load.status === 'ready' ? (list.data ?? []).filter(hasMeteredFeatures).sort(byRelevance) : [];
  const chosen = licenses.find((item) => item.license_id === params.get(LICENSE_PARAM)) ?? licenses[0];

  return (
    <Stack gap="xl" maw={1080}>
      <PageHeader
        title={t`Usage`}
        description={t`What your AI features have used this period, what is left and when it resets.`}
        actions={<BuyCredits license={chosen} />}
      />
      {/* Inside the desktop app: what this machine may still use, named once the licenses are read. */}
      {load.status === 'loading' ? null : (
        <ThisMachineUsage
          features={
            load.status === 'ready' ? (list.data ?? []).flatMap((item) => item.usage_info.features) : []
          }
        />
      )}
      {load.status === 'loading' ? <UsageSkeletons label={t`Loading your licenses`} /> : null}
      <LicensesLoadFailure load={load} onRetry={() => void list.refetch()} />
      {load.status === 'ready' && !chosen ? (
        <EmptyStateCard
          title={t`Nothing is metered yet`}
          description={t`None of your licenses has a feature with an allowance, such as AI requests. Plans that include them show their use here.`}
          actions={
            <Button component={Link} to={portalPaths.purchase} variant="light">
              <Trans>See plans</Trans>
            </Button>
          }
        />
      ) : null}
      {chosen ? (
        <Stack gap="md" component="section" aria-labelledby="usage-license-title">
          <Title order={2} size="h3" id="usage-license-title">
            {licenseLabel(chosen)}
          </Title>
          {licenses.length > 1 ? (
            <NativeSelect
              label={t`License`}
              maw={420}
              value={chosen.license_id}
              data={licenses.map((item) => ({ value: item.license_id, label: licenseLabel(item) }))}
              onChange={(event) =>
                setParams({ [LICENSE_PARAM]: event.currentTarget.value }, { replace: true })
              }
            />
          ) : null}
          <LicenseUsage key={chosen.license_id} license={chosen} />
        </Stack>
      ) : null}
    </Stack>
  );
}
