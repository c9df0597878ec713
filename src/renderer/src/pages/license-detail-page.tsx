import {
  Anchor,
  Button,
  Card,
  DataList,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { FeatureUsage, License } from '../../../shared/api/licenses';
import { licenseMessages } from '../../../shared/messages';
import { portalPaths } from '../../../shared/routes';
import { Notice } from '../components/data/notice';
import { showToast } from '../components/data/toast';
import { useAppDispatch } from '../app/hooks';
import { LoadingBlock } from '../components/data/loading-block';
import { ArrowLeftIcon, KeyIcon } from '../components/brand/icons';
import { EmptyStateCard } from '../components/data/empty-state-card';
import { LicenseStatusBadge } from '../components/licenses/license-status-badge';
import { MaskedLicenseKey } from '../components/licenses/masked-license-key';
import { SeatMeter } from '../components/licenses/seat-meter';
import { RefusalAlert } from '../features/license/activate-key-form';
import { ActivationsTable } from '../features/license/activations-table';
import { FeatureAvailability } from '../features/license/feature-availability';
import { LicenseDownloads } from '../features/license/license-downloads';
import { expiryText, formatDate, formatDateTime, isLicence } from '../features/license/license-format';
import { activateLicense, checkLicenseStatus, fetchLicense } from '../features/license/license-slice';
import { LicenseUsageSection } from '../features/license/license-usage-section';
import { loadThisDevice } from '../features/license/this-device';
import { refreshLicenses } from '../features/license/use-license-list';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const INTERVALS = {
  month: 'billed monthly',
  year: 'billed yearly',
  lifetime: 'one-time purchase',
  free: 'free',
} as const;

type Page =
  | { state: 'loading' }
  | { state: 'ready'; licence: License }
  | { state: 'not-found' }
  | { state: 'failed'; message: string };

function BackLink() {
  return (
    <Anchor component={Link} to={portalPaths.licenses} size="sm" fw={600} style={{ alignSelf: 'flex-start' }}>
      <Group gap={4} component="span" wrap="nowrap">
        <ArrowLeftIcon size={16} />
        All licenses
      </Group>
    </Anchor>
  );
}

function DetailSkeleton() {
  return (
    <LoadingBlock label="Loading the license">
      <Stack gap="lg">
        <Skeleton height={36} width="45%" />
        <Card withBorder padding="lg">
          <Stack gap="sm">
            {[0, 1, 2, 3, 4].map((item) => (
              <Skeleton key={item} height={18} width={`${70 - item * 8}%`} />
            ))}
          </Stack>
        </Card>
        <Skeleton height={160} radius="lg" />
      </Stack>
    </LoadingBlock>
  );
}

/** Why a licence cannot be used (revoked, suspended, expired), with the administrator's reason. */
function StatusNotice({ licence }: { licence: License }) {
  if (licence.status === 'revoked')
    return (
      <Notice tone="danger" title="This license was revoked">
        <Stack gap={6}>
          <Text size="sm" data-testid="revoked-reason">
            Reason given: {licence.revoked_reason ?? 'none recorded'}
          </Text>
          {licence.revoked_at ? (
            <Text size="sm">Revoked on {formatDateTime(licence.revoked_at)}.</Text>
          ) : null}
          <Text size="sm">
            Its machines can no longer use it.{' '}
            <Anchor component={Link} to={portalPaths.support} size="sm" underline="always">
              Contact support
            </Anchor>{' '}
            if you think this is a mistake.
          </Text>
        </Stack>
      </Notice>
    );
  if (licence.status === 'suspended')
    return (
      <Notice tone="caution" title="This license is suspended">
        <Text size="sm">
          Its machines cannot use it for now.{' '}
          <Anchor component={Link} to={portalPaths.support} size="sm" underline="always">
            Contact support
          </Anchor>{' '}
          to restore it.
        </Text>
      </Notice>
    );
  if (licence.status === 'expired')
    return (
      <Notice tone="caution" title="This license has expired">
        <Text size="sm">
          {expiryText(licence)}.{' '}
          <Anchor component={Link} to={portalPaths.purchase} size="sm" underline="always">
            Renew it on the Purchase page
          </Anchor>{' '}
          to use it again.
        </Text>
      </Notice>
    );
  return null;
}

/** "Activate this machine" on this licence, when this machine does not use it yet. */
function ActivateHere({
  licence,
  onActivated,
  onRefused,
}: {
  licence: License;
  onActivated(licence: License): void;
  /** Seats may have been taken elsewhere meanwhile: the page reloads the licence. */
  onRefused(): void;
}) {
  const dispatch = useAppDispatch();
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const full = licence.activations_used >= licence.max_activations;

  const activate = async () => {
    setPending(true);
    setRefused(null);
    const device = await dispatch(loadThisDevice());
    const { hardwareId: _hardwareId, ...description } = loadThisDevice.fulfilled.match(device)
      ? device.payload
      : { hardwareId: '' };
    const result = await dispatch(activateLicense({ license_key: licence.license_key, ...description }));
    setPending(false);
    if (activateLicense.fulfilled.match(result)) {
      const {
        activation: _activation,
        lease: _lease,
        lease_expires_at: _expires,
        message,
        ...updated
      } = result.payload;
      showToast({
        title: 'This machine is activated',
        message: `${licence.plan.name} license: ${message}.`,
      });
      void dispatch(checkLicenseStatus());
      onActivated(updated);
      return;
    }
    setRefused(result.payload ?? licenseMessages.activationFailed);
    onRefused();
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <Button onClick={() => void activate()} loading={pending} leftSection={<KeyIcon size={18} />}>
          Activate this machine
        </Button>
        {full ? (
          <Text size="sm" c="dimmed">
            Every seat is in use: deactivate a machine below first.
          </Text>
        ) : null}
      </Group>
      {refused ? (
        <RefusalAlert
          refusal={{ message: refused, licence: null, seatsFull: full && licence.status === 'active' }}
        />
      ) : null}
    </Stack>
  );
}

/** /licenses/{licenseId}: details, machines, usage, features and downloads of one licence. */
export default function LicenseDetailPage() {
  const { licenseId = '' } = useParams();
  const { hash } = useLocation();
  const dispatch = useAppDispatch();
  const [page, setPageState] = useState<Page>({ state: 'loading' });
  const [hardwareId, setHardwareId] = useState<string | null>(null);
  const [freshFeatures, setFreshFeatures] = useState<FeatureUsage[] | null>(null);

  // Only the newest load may set the page: a late answer for the licence left a moment ago
  // (quick links, Back) must not replace the one on screen.
  const latestLoad = useRef(0);
  const load = useCallback(async () => {
    const request = ++latestLoad.current;
    const setPage = (next: Page) => {
      if (request === latestLoad.current) setPageState(next);
    };
    // Not an id at all: nothing to ask the server.
    if (!UUID.test(licenseId)) return setPage({ state: 'not-found' });
    const result = await dispatch(fetchLicense(licenseId));
    if (fetchLicense.fulfilled.match(result)) {
      if (isLicence(result.payload)) return setPage({ state: 'ready', licence: result.payload });
      return setPage({ state: 'failed', message: licenseMessages.invalidResponseFormat });
    }
    // The user's own list tells "not yours or gone" from a failed call.
    const listed = await dispatch(refreshLicenses());
    if (
      refreshLicenses.fulfilled.match(listed) &&
      !listed.payload.some((item) => item.license_id === licenseId)
    )
      return setPage({ state: 'not-found' });
    setPage({ state: 'failed', message: result.payload ?? licenseMessages.fetchLicenseFailed });
  }, [dispatch, licenseId]);

  useEffect(() => {
    setPageState({ state: 'loading' });
    setFreshFeatures(null);
    void load();
  }, [load]);

  useEffect(() => {
    void dispatch(loadThisDevice()).then((result) => {
      if (loadThisDevice.fulfilled.match(result)) setHardwareId(result.payload.hardwareId);
    });
  }, [dispatch]);

  const ready = page.state === 'ready';
  // The dashboard's "Download" quick action lands on #downloads once the section exists.
  useEffect(() => {
    if (ready && hash === '#downloads')
      document.getElementById('downloads')?.scrollIntoView?.({ block: 'start' });
  }, [ready, hash]);

  const update = useCallback((licence: License) => setPageState({ state: 'ready', licence }), []);
  const reloadFresh = useCallback(async () => {
    await dispatch(refreshLicenses());
    await load();
  }, [dispatch, load]);
  const onUsage = useCallback((features: FeatureUsage[]) => setFreshFeatures(features), []);

  if (page.state === 'loading')
    return (
      <Stack gap="lg" maw={1080}>
        <BackLink />
        <DetailSkeleton />
      </Stack>
    );

  if (page.state === 'not-found')
    return (
      <Stack gap="lg" maw={1080}>
        <BackLink />
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          License not found
        </Title>
        <EmptyStateCard
          icon={<KeyIcon size={28} />}
          title="There is no license here"
          description="This license does not exist or belongs to another account. Your licenses are all listed on the Licenses page."
          actions={
            <Button component={Link} to={portalPaths.licenses} leftSection={<ArrowLeftIcon size={16} />}>
              Back to your licenses
            </Button>
          }
        />
      </Stack>
    );

  if (page.state === 'failed')
    return (
      <Stack gap="lg" maw={1080}>
        <BackLink />
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          License details
        </Title>
        <Notice tone="danger" title="Could not load the license" urgent>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{page.message}</Text>
            <Button size="xs" variant="light" onClick={() => void load()}>
              Try again
            </Button>
          </Stack>
        </Notice>
      </Stack>
    );

  const { licence } = page;
  const activations = licence.activations ?? [];
  const activeHere = activations.some(
    (activation) => activation.hardware_id === hardwareId && activation.deactivated_at === null,
  );
  const features = freshFeatures ?? licence.usage_info.features;

  return (
    <Stack gap="xl" maw={1080}>
      <BackLink />
      <Stack gap={6}>
        <Group gap="sm" wrap="wrap">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {licence.plan.name} license
          </Title>
          <LicenseStatusBadge status={licence.status} />
        </Group>
        <Text c="dimmed">
          {licence.plan.name} plan, {INTERVALS[licence.plan.billing_interval]} · created on{' '}
          {formatDate(licence.created_at)}
        </Text>
      </Stack>

      <StatusNotice licence={licence} />

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg" component="section" aria-labelledby="licence-details-title">
          <Stack gap="md">
            <Title order={2} size="h3" id="licence-details-title">
              Details
            </Title>
            <DataList orientation="vertical" gap="md">
              <DataList.Item>
                <DataList.ItemLabel>License key</DataList.ItemLabel>
                <DataList.ItemValue>
                  <MaskedLicenseKey licenseKey={licence.license_key} />
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Plan</DataList.ItemLabel>
                <DataList.ItemValue>
                  {licence.plan.name} ({INTERVALS[licence.plan.billing_interval]})
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>Expiry</DataList.ItemLabel>
                <DataList.ItemValue>{expiryText(licence)}</DataList.ItemValue>
              </DataList.Item>
              {licence.subscription_id ? (
                <DataList.Item>
                  <DataList.ItemLabel>Subscription</DataList.ItemLabel>
                  <DataList.ItemValue>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {licence.subscription_id}
                    </Text>
                  </DataList.ItemValue>
                </DataList.Item>
              ) : null}
            </DataList>
          </Stack>
        </Card>

        <Card withBorder padding="lg" component="section" aria-labelledby="licence-seats-title">
          <Stack gap="md">
            <Title order={2} size="h3" id="licence-seats-title">
              Seats
            </Title>
            <SeatMeter used={licence.activations_used} allowed={licence.max_activations} size="md" />
            <Text size="sm" c="dimmed">
              Each machine that uses the license takes a seat. Deactivate a machine you no longer use to free
              its seat for another.
            </Text>
            {activeHere ? (
              <Text size="sm" fw={600} data-testid="this-machine-active">
                This machine is activated on this license.
              </Text>
            ) : licence.status === 'active' ? (
              <ActivateHere licence={licence} onActivated={update} onRefused={() => void reloadFresh()} />
            ) : null}
          </Stack>
        </Card>
      </SimpleGrid>

      <Stack gap="md" component="section" aria-labelledby="machines-title">
        <div>
          <Title order={2} size="h3" id="machines-title">
            Machines
          </Title>
          <Text size="sm" c="dimmed">
            Machines activated on this license and when each last checked in.
          </Text>
        </div>
        <Card withBorder padding="md">
          <ActivationsTable
            licence={licence}
            activations={activations}
            thisHardwareId={hardwareId}
            onDeactivated={update}
            headingId="machines-title"
          />
        </Card>
      </Stack>

      <LicenseUsageSection licenseId={licence.license_id} headingId="usage-title" onUsage={onUsage} />

      <FeatureAvailability features={features} headingId="features-title" />

      <LicenseDownloads licence={licence} headingId="downloads-title" />
    </Stack>
  );
}
