import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { LicenseCheckResult } from '../../../../../shared/bridge';
import { portalPaths } from '../../../../../shared/routes';
import { OfflineIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/alert-notice';
import { SectionCard } from '../../../components/layout/section-card';
import type { License } from '../../../../../shared/api/licenses';
import { formatDate } from '../../../lib/format-date';
import { graceRemainingText, STATUS_LABELS, summarizeCheck } from '../license-format';

type LinkProps = { children: ReactNode };
const ToLicenses = ({ children }: LinkProps) => (
  <Anchor component={Link} to={portalPaths.licenses} underline="always" fz="inherit">
    {children}
  </Anchor>
);
const ToSubscriptions = ({ children }: LinkProps) => (
  <Anchor component={Link} to={portalPaths.subscriptions} underline="always" fz="inherit">
    {children}
  </Anchor>
);
const ToPurchase = ({ children }: LinkProps) => (
  <Anchor component={Link} to={portalPaths.purchase} underline="always" fz="inherit">
    {children}
  </Anchor>
);

/** What to try for each answer of the status check, including each refusal docs/api.md lists. */
function stepsFor(result: LicenseCheckResult, hasLicenses: boolean): ReactNode[] {
  if (result.valid)
    return result.offline
      ? [
          <Trans key="offline">
            Nothing to fix now. Connect to the internet before the offline lease runs out to keep working.
          </Trans>,
        ]
      : [
          <Trans key="valid">
            Nothing to fix: this machine’s license is valid. If a feature still fails, contact support below.
          </Trans>,
        ];
  switch (result.status) {
    case 'not_configured':
      if (hasLicenses)
        return [
          <Trans key="activate">
            To use one of your licenses here, open the <ToLicenses>Licenses page</ToLicenses> and activate it
            on this machine. The desktop app activates itself when you sign in to it.
          </Trans>,
        ];
      return [
        <Trans key="activate">
          Open the <ToLicenses>Licenses page</ToLicenses> and activate one of your licenses on this machine
          (the free Base plan works too).
        </Trans>,
        <Trans key="choose">
          No license yet? Choose a plan on the <ToPurchase>Purchase page</ToPurchase>.
        </Trans>,
      ];
    case 'invalid_key':
    case 'not_found':
      return [
        <Trans key="unknown">
          The key stored here is not one the license server knows. Activate again from the{' '}
          <ToLicenses>Licenses page</ToLicenses>, where your keys are listed.
        </Trans>,
      ];
    case 'not_activated':
    case 'deactivated':
      return [
        <Trans key="seat">
          This machine holds no seat on the license. Activate it again from the{' '}
          <ToLicenses>Licenses page</ToLicenses>.
        </Trans>,
        <Trans key="full">
          All seats in use? Free one by deactivating a machine you no longer use, then activate here.
        </Trans>,
      ];
    case 'expired':
      return [
        <Trans key="expired">
          The license has ended. Renew the plan on the <ToPurchase>Purchase page</ToPurchase>, or activate
          another license.
        </Trans>,
      ];
    case 'suspended':
      return [
        <Trans key="suspended">
          An administrator suspended this license. Contact support below to have it resumed.
        </Trans>,
      ];
    case 'paused': {
      const resumes = result.resumes_at ? formatDate(result.resumes_at) : null;
      return [
        resumes ? (
          <Trans key="paused">
            Its subscription is paused; it resumes by itself on {resumes} and the license works again. To use
            it sooner, resume the subscription on the <ToSubscriptions>Subscriptions page</ToSubscriptions>.
          </Trans>
        ) : (
          <Trans key="paused">
            Its subscription is paused. To use it sooner, resume the subscription on the{' '}
            <ToSubscriptions>Subscriptions page</ToSubscriptions>.
          </Trans>
        ),
      ];
    }
    case 'revoked':
      return [
        <Trans key="revoked">
          This license was revoked for good (the reason is above). Contact support if you think this is a
          mistake.
        </Trans>,
      ];
    case 'error':
      return [
        <Trans key="unreached">
          The check did not reach the license server. Check your internet connection and try again.
        </Trans>,
        <Trans key="lease">
          The desktop app keeps working offline on its signed lease until the lease ends.
        </Trans>,
      ];
    default:
      return [
        <Trans key="again">
          Activate the license again from the <ToLicenses>Licenses page</ToLicenses>; contact support if that
          fails.
        </Trans>,
      ];
  }
}

/**
 * The license-status check of this machine, with what to do for each answer. With no key stored the
 * answer is the local 'No license configured' (no call is made).
 */
export function LicenseTroubleshooter({
  result,
  checking,
  onCheck,
  kind,
  licenses = null,
}: {
  result: LicenseCheckResult | null;
  checking: boolean;
  onCheck(): void;
  kind: 'web' | 'desktop' | null;
  /** The account's licenses, once read: a machine with no key then says what the account has. */
  licenses?: readonly Pick<License, 'license_id' | 'status' | 'plan'>[] | null;
}) {
  const { t } = useLingui();
  const badge = result ? summarizeCheck(result, licenses, kind === 'desktop' ? 'computer' : 'browser') : null;
  const grace = result?.offline ? graceRemainingText(result.offline.grace_remaining_seconds) : '';
  const listLicenses = result?.status === 'not_configured' && licenses && licenses.length > 0;
  return (
    <SectionCard
      headingId="license-check-title"
      title={t`License check`}
      description={
        kind === 'desktop' ? (
          <Trans>
            Checks the license stored on this computer with the license server, exactly as the desktop app
            does at start.
          </Trans>
        ) : (
          <Trans>
            Checks the license stored on this browser with the license server, exactly as the desktop app does
            at start.
          </Trans>
        )
      }
    >
      <div aria-live="polite" aria-busy={checking}>
        {result && badge ? (
          <Stack gap="sm">
            <Group gap="xs" wrap="wrap">
              <Badge variant="dot" color={badge.color} size="lg" tt="none">
                {badge.label}
              </Badge>
              <Text size="sm" data-testid="support-license-status">
                {badge.message}
              </Text>
            </Group>
            {listLicenses ? (
              <List size="sm" spacing={2} aria-label={t`Your licenses`}>
                {licenses.map((license) => (
                  <List.Item key={license.license_id}>
                    {license.plan.name}: {STATUS_LABELS[license.status]}
                  </List.Item>
                ))}
              </List>
            ) : null}
            {result.offline ? (
              <Notice
                variant="light"
                color="yellow"
                icon={<OfflineIcon />}
                title={t`Working offline`}
                role="note"
              >
                <Trans>
                  Checked against the signed lease this machine keeps: {grace} of offline use left.
                </Trans>
              </Notice>
            ) : null}
            <div>
              <Text size="sm" fw={600}>
                <Trans>What to do</Trans>
              </Text>
              <List size="sm" spacing={4} mt={4}>
                {stepsFor(result, !!licenses && licenses.length > 0).map((step, index) => (
                  <List.Item key={index}>{step}</List.Item>
                ))}
              </List>
            </div>
          </Stack>
        ) : checking ? (
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
        )}
      </div>
      <Group>
        <Button variant="light" onClick={onCheck} loading={checking}>
          <Trans>Check license status</Trans>
        </Button>
      </Group>
    </SectionCard>
  );
}
