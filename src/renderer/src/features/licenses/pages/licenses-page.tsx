import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { BASE_PLAN_CODE } from '../../../../../shared/api/plans';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { PageHeader } from '../../../components/layout/page-header';
import { CartIcon } from '../../../components/brand/icons';
import { LoadingBlock } from '../../../components/data/loading-block';
import { useAppSelector } from '../../../lib/store-hooks';
import { ActivateKeyForm } from '../components/activate-key-form';
import { LicensesLoadFailure } from '../components/licenses-load-failure';
import { BaseLicenseOffer } from '../components/base-license-offer';
import { LicenseCard } from '../components/license-card';
import { ThisMachineCard } from '../components/this-machine-card';
import { type LicenseRecord, useListMyLicensesQuery } from '../licenses-endpoints';
import { byRelevance, listState } from '../license-list';
import { selectLicenses, selectLicenseStatus } from '../license-slice';
import { useLicenseFlags } from '../use-license-flags';

function LicenseSkeletons() {
  const { t } = useLingui();
  return (
    <LoadingBlock label={t`Loading your licenses`}>
      <Stack gap="md">
        {[0, 1].map((item) => (
          <Card key={item} withBorder p="lg">
            <Stack gap="md">
              <Skeleton height={22} width="40%" />
              <Skeleton height={12} width="30%" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Skeleton height={36} />
                <Skeleton height={36} />
              </SimpleGrid>
            </Stack>
          </Card>
        ))}
      </Stack>
    </LoadingBlock>
  );
}

/** /licenses: the user's licenses, activation by key or of the free Base license, and this machine. */
export default function LicensesPage() {
  const { t } = useLingui();
  const list = useListMyLicensesQuery();
  // The list as the license state holds it: activations add to it before the next read.
  const stored = useAppSelector(selectLicenses);
  const machineStatus = useAppSelector(selectLicenseStatus);
  const load = listState(list);
  const licenses: LicenseRecord[] = load.status === 'ready' && Array.isArray(stored) ? stored : [];

  const sorted = [...licenses].sort(byRelevance);
  const hasBase = licenses.some((license) => license.plan.code === BASE_PLAN_CODE);
  const flags = useLicenseFlags(licenses);

  // "Download the desktop app" (/landing) comes here as #downloads: the downloads are those of the
  // most relevant license; without one, this page's free Base license is the way to them.
  const downloadsOf = useLocation().hash === '#downloads' ? sorted[0] : undefined;
  if (downloadsOf)
    return (
      <Navigate
        to={`${pathWith(portalPaths.licenseDetail, { licenseId: downloadsOf.license_id })}#downloads`}
        replace
      />
    );

  return (
    <Stack gap="xl" maw={1080}>
      <PageHeader
        title={t`Licenses`}
        description={t`Your licenses with their keys and seats, activation of this machine, and the free Base plan.`}
        actions={
          <Button
            component={Link}
            to={portalPaths.purchase}
            variant="light"
            leftSection={<CartIcon size={18} />}
          >
            <Trans>Buy a plan</Trans>
          </Button>
        }
      />

      <Stack gap="md" component="section" aria-labelledby="your-licenses-title">
        <Title order={2} size="h3" id="your-licenses-title">
          <Trans>Your licenses</Trans>
        </Title>
        {load.status === 'loading' ? <LicenseSkeletons /> : null}
        <LicensesLoadFailure load={load} onRetry={() => void list.refetch()} />
        {load.status === 'ready' && sorted.length === 0 ? (
          <BaseLicenseOffer
            hasLicenses={false}
            order={3}
            footnote={t`Have a key already? Enter it under “Activate by key” below.`}
          />
        ) : null}
        {sorted.map((license) => (
          <LicenseCard
            key={license.license_id}
            license={license}
            check={machineStatus}
            flag={flags.get(license.license_id)}
          />
        ))}
        {load.status === 'ready' && sorted.length > 0 && !hasBase ? (
          <BaseLicenseOffer hasLicenses order={3} />
        ) : null}
      </Stack>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ActivateKeyForm />
        <ThisMachineCard />
      </SimpleGrid>
    </Stack>
  );
}
