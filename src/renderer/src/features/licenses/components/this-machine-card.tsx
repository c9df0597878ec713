import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { LicenseKeyText } from '../../../components/data/license-key-text';
import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { Link } from 'react-router-dom';
import type { LicenseCheckResult } from '../../../../../shared/bridge';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, OfflineIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/notice';
import { knownText } from '../../../lib/i18n/portal-i18n';
import { useAppSelector } from '../../../lib/store-hooks';
import { checkBadge, formatDateTime, graceRemainingText } from '../license-format';
import { selectLicenses } from '../license-slice';
import { useThisMachine } from '../use-this-machine';

/** What to do next, for the answers that need the user to act. */
function nextStep(result: LicenseCheckResult): ReactNode {
  if (result.status === 'not_configured')
    return (
      <Trans>
        No license is activated on this machine yet. Use “Activate on this machine” on one of your licenses,
        enter a key, or{' '}
        <Anchor component={Link} to={portalPaths.purchase} underline="always">
          get a plan
        </Anchor>{' '}
        first.
      </Trans>
    );
  if (result.requires_activation) return <Trans>Activate this machine on the license to use it here.</Trans>;
  return null;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Box component="dd" m={0} mt={2}>
        {children}
      </Box>
    </div>
  );
}

function LicenseStatusView({
  result,
  checking,
  planName,
}: {
  result: LicenseCheckResult | null;
  checking: boolean;
  /** The plan of the user's license this machine uses, when it is one of theirs. */
  planName: string | undefined;
}) {
  const { t } = useLingui();
  if (!result)
    return checking ? (
      <Group gap="xs">
        <Loader size="xs" aria-hidden="true" />
        <Text size="sm">
          <Trans>Checking the license…</Trans>
        </Text>
      </Group>
    ) : (
      <Text size="sm">
        <Trans>Not checked yet.</Trans>
      </Text>
    );
  const badge = checkBadge(result);
  const trialDays = result.trial?.days_left ?? 0;
  const step = nextStep(result);
  const grace = result.offline ? graceRemainingText(result.offline.grace_remaining_seconds) : '';
  const leaseEnd = result.offline ? formatDateTime(result.offline.lease_expires_at) : '';
  return (
    <Stack gap={6}>
      <Group gap="xs" wrap="wrap">
        {/* The dot carries the colour; the text keeps the body colour, readable in both schemes. */}
        <Badge color={badge.color} variant="dot" size="lg">
          {badge.label}
        </Badge>
        <Text size="sm" data-testid="license-status-message">
          {/* SPEC's and the server's English ("No license configured") in the language shown. */}
          {knownText(result.message)}
        </Text>
      </Group>
      {result.valid ? (
        <Text size="sm" fw={500} data-testid="machine-license">
          {result.machine_trial
            ? // This machine's trial before any account: an account keeps it (signing in here takes it over).
              plural(trialDays, {
                one: 'Trial: # day left — create an account to keep it.',
                other: 'Trial: # days left — create an account to keep it.',
              })
            : planName
              ? t`Activated here with your ${planName} license.`
              : t`Activated here with a license shared with you.`}
        </Text>
      ) : null}
      {step ? (
        <Text size="sm" c="dimmed">
          {step}
        </Text>
      ) : null}
      {result.offline ? (
        <Alert variant="light" color="yellow" icon={<OfflineIcon />} title={t`Working offline`}>
          {t`The license server could not be reached, so the license was checked against the signed lease this machine keeps: ${grace} of offline use left. Connect to the internet before ${leaseEnd} to keep using it.`}
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * "This machine" on the license screens: the machine's id, the stored license key and the status
 * of that key here. In the desktop these come from the main process (with the offline grace
 * state); on the web the id is this browser's and the status comes from the API.
 */
export function ThisMachineCard() {
  const { t } = useLingui();
  const headingId = useId();
  const { machine, machineLoading, machineError, result, checking, checkAgain } = useThisMachine();
  const licenses = useAppSelector(selectLicenses);
  const used = result?.valid
    ? (Array.isArray(licenses) ? licenses : []).find((license) => license.license_id === result.license_id)
    : undefined;
  const desktop = machine?.kind === 'desktop';
  // Whose license this machine uses, when an organisation provides it (the check names the seat).
  const providedBy = used?.organisation?.name ?? result?.seat?.organisation_name;
  const version = machine?.appInfo?.version;
  const serverUrl = machine?.appInfo?.serverUrl;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h3" id={headingId}>
            <Trans>This machine</Trans>
          </Title>
          <Button variant="light" size="xs" onClick={checkAgain} loading={checking}>
            <Trans>Check again</Trans>
          </Button>
        </Group>

        {machineError ? (
          <Alert
            color="red"
            variant="light"
            icon={<AlertIcon />}
            role="alert"
            title={t`Could not read this machine`}
          >
            {machineError}
          </Alert>
        ) : null}

        <Stack component="dl" gap="sm" m={0} aria-busy={machineLoading}>
          <Row label={desktop ? t`Hardware id` : t`Browser id`}>
            {machine ? (
              <Stack gap={4}>
                <Group gap="xs" wrap="wrap" align="center" preventGrowOverflow={false}>
                  <Code data-testid="hardware-id" style={{ wordBreak: 'break-all' }}>
                    {machine.hardwareId}
                  </Code>
                  <CopyButton value={machine.hardwareId}>
                    {({ copied, copy }) => (
                      <Button
                        variant="subtle"
                        size="compact-xs"
                        onClick={copy}
                        aria-label={t`Copy the hardware id`}
                      >
                        {copied ? t`Copied` : t`Copy`}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Text size="xs" c="dimmed">
                  {desktop
                    ? t`Derived from this computer and hashed: the raw machine id never leaves it.`
                    : t`In a browser there is no machine id: this browser keeps a random id and counts as one machine.`}
                </Text>
              </Stack>
            ) : machineLoading ? (
              <Loader size="xs" aria-label={t`Loading the hardware id`} />
            ) : (
              <Text size="sm">
                <Trans>Unknown</Trans>
              </Text>
            )}
          </Row>

          <Row label={t`License key`}>
            {machine ? (
              providedBy ? (
                // An organisation's key is kept by the app for its checks, and shown to no member.
                <Text size="sm">
                  <Trans>Kept by the app: {providedBy} provides this license</Trans>
                </Text>
              ) : machine.licenseKey ? (
                <Code>
                  <LicenseKeyText value={machine.licenseKey} />
                </Code>
              ) : (
                <Text size="sm">
                  <Trans>None on this machine</Trans>
                </Text>
              )
            ) : (
              <Text size="sm">…</Text>
            )}
          </Row>

          <Row label={t`License status`}>
            <div aria-live="polite">
              <LicenseStatusView result={result} checking={checking} planName={used?.plan.name} />
            </div>
          </Row>

          {machine?.appInfo ? (
            <Row label={t`Desktop app`}>
              <Text size="sm">{t`Version ${version} · server ${serverUrl}`}</Text>
            </Row>
          ) : null}
        </Stack>

        {machine?.appInfo?.tokenStorage === 'memory' ? (
          <Notice tone="warning" title={t`Sign-in will not be kept`}>
            <Trans>
              This computer has no system keyring the app can use, so your sign-in is kept in memory only: you
              will need to sign in again after closing the app. Install and unlock a keyring (for example
              GNOME Keyring) to stay signed in.
            </Trans>
          </Notice>
        ) : null}
      </Stack>
    </Card>
  );
}
