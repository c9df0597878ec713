import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { FeatureUsage, License } from '../../../../../shared/api/licenses';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { portalPaths } from '../../../../../shared/routes';
import { ArrowLeftIcon, KeyIcon } from '../../../components/brand/icons';
import { EmptyStateCard } from '../../../components/data/empty-state-card';
import { LoadingBlock } from '../../../components/data/loading-block';
import { Notice } from '../../../components/data/notice';
import { RetryNotice } from '../../../components/data/retry-notice';
import { showToast } from '../../../components/data/toast';
import { failureMessage } from '../../../lib/api-errors';
import { useAppDispatch } from '../../../lib/store-hooks';
import { RefusalAlert } from '../components/activate-key-form';
import { ActivationsTable } from '../components/activations-table';
import { FeatureAvailability } from '../components/feature-availability';
import { LicenseDownloads } from '../components/license-downloads';
import { LicenseFlagAlert } from '../components/license-flag-alert';
import { LicenseStatusBadge } from '../components/license-status-badge';
import { FloatingSeatsSection } from '../components/floating-seats-section';
import { LicenseUsageSection } from '../components/license-usage-section';
import { ActivateOnThisMachine } from '../components/activate-on-this-machine';
import { MaskedLicenseKey } from '../components/masked-license-key';
import { ProvidedBy } from '../components/provided-license';
import { MachineChangesNote } from '../components/machine-changes-note';
import { SeatMeter } from '../components/seat-meter';
import {
  recheckLicenseStatus,
  refreshLicenses,
  licenseApi,
  useActivateLicenseMutation,
  useGetMyLicenseQuery,
  useGetThisMachineQuery,
  useListMyLicensesQuery,
} from '../licenses-endpoints';
import { expiryText, formatDate, formatDateTime, isLicense } from '../license-format';
import { useLicenseFlags } from '../use-license-flags';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const INTERVALS = {
  month: msg`billed monthly`,
  year: msg`billed yearly`,
  lifetime: msg`one-time purchase`,
  free: msg`free`,
} as const;

function BackLink() {
  return (
    <Anchor component={Link} to={portalPaths.licenses} size="sm" fw={600} style={{ alignSelf: 'flex-start' }}>
      <Group gap={4} component="span" wrap="nowrap">
        <ArrowLeftIcon size={16} />
        <Trans>All licenses</Trans>
      </Group>
    </Anchor>
  );
}

function DetailSkeleton() {
  const { t } = useLingui();
  return (
    <LoadingBlock label={t`Loading the license`}>
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

/**
 * Why a license cannot be used (revoked, suspended, expired), with the administrator's reason, or
 * that it expires soon: a suspension is fixed by paying when its subscription went unpaid, else by
 * support, as the dashboard says.
 */
function StatusNotice({ license }: { license: License }) {
  const { t } = useLingui();
  const flags = useLicenseFlags(useMemo(() => [license], [license]));
  const reason = license.revoked_reason ?? t`none recorded`;
  const revokedAt = license.revoked_at ? formatDateTime(license.revoked_at) : null;
  const expiry = expiryText(license);
  if (license.status === 'revoked')
    return (
      <Notice tone="danger" title={t`This license was revoked`}>
        <Stack gap={6}>
          <Text size="sm" data-testid="revoked-reason">
            <Trans>Reason given: {reason}</Trans>
          </Text>
          {revokedAt ? (
            <Text size="sm">
              <Trans>Revoked on {revokedAt}.</Trans>
            </Text>
          ) : null}
          <Text size="sm">
            <Trans>
              Its machines can no longer use it.{' '}
              <Anchor component={Link} to={portalPaths.support} size="sm" underline="always">
                Contact support
              </Anchor>{' '}
              if you think this is a mistake.
            </Trans>
          </Text>
        </Stack>
      </Notice>
    );
  if (license.status === 'expired')
    return (
      <Notice tone="caution" title={t`This license has expired`}>
        <Text size="sm">
          <Trans>
            {expiry}.{' '}
            <Anchor component={Link} to={portalPaths.purchase} size="sm" underline="always">
              Renew it on the Purchase page
            </Anchor>{' '}
            to use it again.
          </Trans>
        </Text>
      </Notice>
    );
  const flag = flags.get(license.license_id);
  const plan = license.plan.name;
  return flag ? <LicenseFlagAlert flag={flag} licenseName={t`${plan} license`} /> : null;
}

/** "Activate this machine" on this license, when this machine does not use it yet. */
function ActivateHere({ license }: { license: License }) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [activateLicense, { isLoading: pending }] = useActivateLicenseMutation();
  const [refused, setRefused] = useState<string | null>(null);
  const full = license.activations_used >= license.max_activations;

  const activate = async () => {
    setRefused(null);
    const result = await activateLicense({ license_key: license.license_key });
    if (result.data) {
      const planName = license.plan.name;
      showToast({ title: t`This machine is activated`, message: t`It now uses your ${planName} license.` });
      void dispatch(recheckLicenseStatus());
      return;
    }
    setRefused(failureMessage(result.error, licenseMessages.activationFailed));
    // Seats may have been taken elsewhere meanwhile: the license is read again.
    await dispatch(refreshLicenses());
    void dispatch(
      licenseApi.endpoints.getMyLicense.initiate(license.license_id, {
        forceRefetch: true,
        subscribe: false,
      }),
    );
  };

  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <Button onClick={() => void activate()} loading={pending} leftSection={<KeyIcon size={18} />}>
          <Trans>Activate this machine</Trans>
        </Button>
        {full ? (
          <Text size="sm" c="dimmed">
            <Trans>Every seat is in use: deactivate a machine below first.</Trans>
          </Text>
        ) : null}
      </Group>
      {refused ? (
        <RefusalAlert
          refusal={{ message: refused, license: null, seatsFull: full && license.status === 'active' }}
        />
      ) : null}
    </Stack>
  );
}

/** /licenses/{licenseId}: details, machines, usage, features and downloads of one license. */
export default function LicenseDetailPage() {
  const { t } = useLingui();
  const { licenseId = '' } = useParams();
  const { hash } = useLocation();
  // Not an id at all: nothing to ask the server.
  const isId = UUID.test(licenseId);
  const detail = useGetMyLicenseQuery(licenseId, { skip: !isId });
  // The user's own list (read afresh) tells "not yours or gone" from a failed call.
  const list = useListMyLicensesQuery(undefined, { skip: !detail.isError, refetchOnMountOrArgChange: true });
  const { data: machine } = useGetThisMachineQuery();
  const hardwareId = machine?.hardwareId ?? null;
  const [freshFeatures, setFreshFeatures] = useState<{ licenseId: string; features: FeatureUsage[] } | null>(
    null,
  );

  const license = detail.currentData;
  const ready = isLicense(license);
  // The dashboard's "Download" quick action lands on #downloads once the section exists.
  useEffect(() => {
    if (ready && hash === '#downloads')
      document.getElementById('downloads')?.scrollIntoView?.({ block: 'start' });
  }, [ready, hash]);

  const onUsage = useCallback(
    (features: FeatureUsage[]) => setFreshFeatures({ licenseId, features }),
    [licenseId],
  );

  // Only the list read after this failure (not an earlier one) tells "not found" from "failed".
  const listChecked =
    detail.isError &&
    !list.isFetching &&
    !list.isUninitialized &&
    (list.startedTimeStamp ?? 0) >= (detail.startedTimeStamp ?? 0);
  const notListed =
    listChecked &&
    !list.isError &&
    Array.isArray(list.currentData) &&
    !list.currentData.some((item) => item.license_id === licenseId);

  if (!isId || notListed)
    return (
      <Stack gap="lg" maw={1080}>
        <BackLink />
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          <Trans>License not found</Trans>
        </Title>
        <EmptyStateCard
          icon={<KeyIcon size={28} />}
          title={t`There is no license here`}
          description={t`This license does not exist or belongs to another account. Your licenses are all listed on the Licenses page.`}
          actions={
            <Button component={Link} to={portalPaths.licenses} leftSection={<ArrowLeftIcon size={16} />}>
              <Trans>Back to your licenses</Trans>
            </Button>
          }
        />
      </Stack>
    );

  const failure = detail.isError
    ? failureMessage(detail.error, licenseMessages.fetchLicenseFailed)
    : license !== undefined && !ready
      ? licenseMessages.invalidResponseFormat
      : null;

  if (failure && (listChecked || !detail.isError))
    return (
      <Stack gap="lg" maw={1080}>
        <BackLink />
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          <Trans>License details</Trans>
        </Title>
        {/* A new failure reads the list afresh again before it is shown. */}
        <RetryNotice
          title={t`Could not load the license`}
          message={failure}
          onRetry={() => void detail.refetch()}
        />
      </Stack>
    );

  if (!ready)
    return (
      <Stack gap="lg" maw={1080}>
        <BackLink />
        <DetailSkeleton />
      </Stack>
    );

  const activations = license.activations ?? [];
  const activeHere = activations.some(
    (activation) => activation.hardware_id === hardwareId && activation.deactivated_at === null,
  );
  const features =
    freshFeatures?.licenseId === licenseId ? freshFeatures.features : license.usage_info.features;
  const plan = license.plan.name;
  const interval = t(INTERVALS[license.plan.billing_interval]);
  const created = formatDate(license.created_at);
  const provider = license.organisation?.name;

  return (
    <Stack gap="xl" maw={1080}>
      <BackLink />
      <Stack gap={6}>
        <Group gap="sm" wrap="wrap">
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            {t`${plan} license`}
          </Title>
          <LicenseStatusBadge status={license.status} />
        </Group>
        <Text c="dimmed">
          <Trans>
            {plan} plan, {interval} · created on {created}
          </Trans>
        </Text>
      </Stack>

      <StatusNotice license={license} />

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder padding="lg" component="section" aria-labelledby="license-details-title">
          <Stack gap="md">
            <Title order={2} size="h3" id="license-details-title">
              <Trans>Details</Trans>
            </Title>
            <DataList orientation="vertical" gap="md">
              <DataList.Item>
                <DataList.ItemLabel>
                  {license.organisation ? t`Provided by` : t`License key`}
                </DataList.ItemLabel>
                <DataList.ItemValue>
                  {license.organisation ? (
                    <ProvidedBy organisation={license.organisation} />
                  ) : (
                    <MaskedLicenseKey licenseKey={license.license_key} />
                  )}
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>
                  <Trans>Plan</Trans>
                </DataList.ItemLabel>
                <DataList.ItemValue>
                  {plan} ({interval})
                </DataList.ItemValue>
              </DataList.Item>
              <DataList.Item>
                <DataList.ItemLabel>
                  <Trans>Validity</Trans>
                </DataList.ItemLabel>
                <DataList.ItemValue>{expiryText(license)}</DataList.ItemValue>
              </DataList.Item>
              {license.subscription_id ? (
                <DataList.Item>
                  <DataList.ItemLabel>
                    <Trans>Subscription</Trans>
                  </DataList.ItemLabel>
                  <DataList.ItemValue>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {license.subscription_id}
                    </Text>
                  </DataList.ItemValue>
                </DataList.Item>
              ) : null}
            </DataList>
          </Stack>
        </Card>

        <Card withBorder padding="lg" component="section" aria-labelledby="license-seats-title">
          <Stack gap="md">
            <Title order={2} size="h3" id="license-seats-title">
              <Trans>Seats</Trans>
            </Title>
            {license.organisation ? (
              <Text size="sm" c="dimmed">
                <Trans>
                  Your seat in {provider} lets you use the license on a few machines of your own. Deactivate
                  one you no longer use to make room for another.
                </Trans>
              </Text>
            ) : license.floating ? (
              <Text size="sm" c="dimmed" data-testid="floating-license-note">
                <Trans>
                  This license has floating seats: no machine is activated on it. A machine takes a free seat
                  while the app runs and gives it back when the app closes (see Floating seats below).
                </Trans>
              </Text>
            ) : (
              <>
                <SeatMeter used={license.activations_used} allowed={license.max_activations} size="md" />
                <Text size="sm" c="dimmed">
                  <Trans>
                    Each machine that uses the license takes a seat. Deactivate a machine you no longer use to
                    free its seat for another.
                  </Trans>
                </Text>
              </>
            )}
            <MachineChangesNote changes={license.machine_changes} />
            {activeHere ? (
              <Text size="sm" fw={600} data-testid="this-machine-active">
                <Trans>This machine is activated on this license.</Trans>
              </Text>
            ) : license.status === 'active' ? (
              license.organisation || license.floating ? (
                <ActivateOnThisMachine license={license} option={{ kind: 'available' }} />
              ) : (
                <ActivateHere license={license} />
              )
            ) : null}
          </Stack>
        </Card>
      </SimpleGrid>

      <Stack gap="md" component="section" aria-labelledby="machines-title">
        <div>
          <Title order={2} size="h3" id="machines-title">
            <Trans>Machines</Trans>
          </Title>
          <Text size="sm" c="dimmed">
            <Trans>Machines activated on this license and when each last checked in.</Trans>
          </Text>
        </div>
        <Card withBorder padding="md">
          <ActivationsTable
            license={license}
            activations={activations}
            thisHardwareId={hardwareId}
            headingId="machines-title"
          />
        </Card>
      </Stack>

      {license.organisation ? null : (
        <FloatingSeatsSection licenseId={license.license_id} headingId="floating-seats-title" />
      )}

      <LicenseUsageSection licenseId={license.license_id} headingId="usage-title" onUsage={onUsage} />

      <FeatureAvailability features={features} headingId="features-title" />

      <LicenseDownloads license={license} headingId="downloads-title" />
    </Stack>
  );
}
