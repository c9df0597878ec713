import { Button, Card, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { BASE_PLAN_CODE } from '../../../shared/api/plans';
import { portalPaths } from '../../../shared/routes';
import { Notice } from '../components/data/notice';
import { useAppSelector } from '../app/hooks';
import { PageHeader } from '../components/account/page-header';
import { LoadingBlock } from '../components/data/loading-block';
import { CartIcon } from '../components/brand/icons';
import { ActivateKeyForm } from '../features/license/activate-key-form';
import { BaseLicenseOffer } from '../features/license/base-license-offer';
import { LicenseCard } from '../features/license/license-card';
import { type LicenseRecord, selectLicenseStatus } from '../features/license/license-slice';
import { ThisMachineCard } from '../features/license/this-machine-card';
import { useLicenseList } from '../features/license/use-license-list';

const STATUS_ORDER = { active: 0, suspended: 1, expired: 2, revoked: 3 } as const;

/** Active licences first, then the newest. */
const byRelevance = (a: LicenseRecord, b: LicenseRecord) =>
  STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.created_at.localeCompare(a.created_at);

function LicenceSkeletons() {
  return (
    <LoadingBlock label="Loading your licenses">
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

/** /licenses: the user's licences, activation by key or of the free Base licence, and this machine. */
export default function LicensesPage() {
  const { load, licences, reload } = useLicenseList();
  const machineStatus = useAppSelector(selectLicenseStatus);
  // The machine card reads the stored key once: a new activation remounts it to show the new key.
  const [machineCardKey, setMachineCardKey] = useState(0);
  const activated = () => setMachineCardKey((key) => key + 1);

  const sorted = [...licences].sort(byRelevance);
  const hasBase = licences.some((licence) => licence.plan.code === BASE_PLAN_CODE);
  const activeHere = machineStatus?.valid ? machineStatus.license_id : undefined;

  return (
    <Stack gap="xl" maw={1080}>
      <PageHeader
        title="Licenses"
        description="Your licenses with their keys and seats, activation of this machine, and the free Base plan."
        actions={
          <Button
            component={Link}
            to={portalPaths.purchase}
            variant="light"
            leftSection={<CartIcon size={18} />}
          >
            Buy a plan
          </Button>
        }
      />

      <Stack gap="md" component="section" aria-labelledby="your-licenses-title">
        <Title order={2} size="h3" id="your-licenses-title">
          Your licenses
        </Title>
        {load.status === 'loading' ? <LicenceSkeletons /> : null}
        {load.status === 'failed' ? (
          <Notice tone="danger" title="Could not load your licenses" urgent>
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{load.error}</Text>
              <Button size="xs" variant="light" onClick={() => void reload()}>
                Try again
              </Button>
            </Stack>
          </Notice>
        ) : null}
        {load.status === 'ready' && sorted.length === 0 ? (
          <BaseLicenseOffer
            hasLicences={false}
            order={3}
            onActivated={activated}
            footnote="Have a key already? Enter it under “Activate by key” below."
          />
        ) : null}
        {sorted.map((licence) => (
          <LicenseCard
            key={licence.license_id}
            licence={licence}
            onThisMachine={activeHere === licence.license_id}
          />
        ))}
        {load.status === 'ready' && sorted.length > 0 && !hasBase ? (
          <BaseLicenseOffer hasLicences order={3} onActivated={activated} />
        ) : null}
      </Stack>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ActivateKeyForm onActivated={activated} />
        <ThisMachineCard key={machineCardKey} />
      </SimpleGrid>
    </Stack>
  );
}
