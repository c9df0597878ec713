import { Anchor, Badge, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describeGraceRemaining, type LicenseCheckResult } from '../../../../../shared/bridge';
import { portalPaths } from '../../../../../shared/routes';
import { OfflineIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/alert-notice';
import { SectionCard } from '../../../components/layout/section-card';
import type { License } from '../../../../../shared/api/licenses';
import { formatDate } from '../../../lib/format-date';
import { STATUS_LABELS, summarizeCheck } from '../license-format';

const toLicenses = (
  <Anchor component={Link} to={portalPaths.licenses} underline="always" fz="inherit">
    Licenses page
  </Anchor>
);
const toSubscriptions = (
  <Anchor component={Link} to={portalPaths.subscriptions} underline="always" fz="inherit">
    Subscriptions page
  </Anchor>
);
const toPurchase = (
  <Anchor component={Link} to={portalPaths.purchase} underline="always" fz="inherit">
    Purchase page
  </Anchor>
);

/** What to try for each answer of the status check, including each refusal docs/api.md lists. */
function stepsFor(result: LicenseCheckResult, hasLicenses: boolean): ReactNode[] {
  if (result.valid)
    return result.offline
      ? ['Nothing to fix now. Connect to the internet before the offline lease runs out to keep working.']
      : ['Nothing to fix: this machine’s license is valid. If a feature still fails, contact support below.'];
  switch (result.status) {
    case 'not_configured':
      if (hasLicenses)
        return [
          <>
            To use one of your licenses here, open the {toLicenses} and activate it on this machine. The
            desktop app activates itself when you sign in to it.
          </>,
        ];
      return [
        <>
          Open the {toLicenses} and activate one of your licenses on this machine (the free Base plan works
          too).
        </>,
        <>No license yet? Choose a plan on the {toPurchase}.</>,
      ];
    case 'invalid_key':
    case 'not_found':
      return [
        <>
          The key stored here is not one the license server knows. Activate again from the {toLicenses}, where
          your keys are listed.
        </>,
      ];
    case 'not_activated':
    case 'deactivated':
      return [
        <>This machine holds no seat on the license. Activate it again from the {toLicenses}.</>,
        'All seats in use? Free one by deactivating a machine you no longer use, then activate here.',
      ];
    case 'expired':
      return [<>The license has ended. Renew the plan on the {toPurchase}, or activate another license.</>];
    case 'suspended':
      return ['An administrator suspended this license. Contact support below to have it resumed.'];
    case 'paused':
      return [
        <>
          Its subscription is paused
          {result.resumes_at
            ? `; it resumes by itself on ${formatDate(result.resumes_at)} and the license works again`
            : ''}
          . To use it sooner, resume the subscription on the {toSubscriptions}.
        </>,
      ];
    case 'revoked':
      return [
        'This license was revoked for good (the reason is above). Contact support if you think this is a mistake.',
      ];
    case 'error':
      return [
        'The check did not reach the license server. Check your internet connection and try again.',
        'The desktop app keeps working offline on its signed lease until the lease ends.',
      ];
    default:
      return [<>Activate the license again from the {toLicenses}; contact support if that fails.</>];
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
  const badge = result ? summarizeCheck(result, licenses, kind === 'desktop' ? 'computer' : 'browser') : null;
  const listLicenses = result?.status === 'not_configured' && licenses && licenses.length > 0;
  return (
    <SectionCard
      headingId="license-check-title"
      title="License check"
      description={
        <>
          Checks the license stored on this {kind === 'desktop' ? 'computer' : 'browser'} with the license
          server, exactly as the desktop app does at start.
        </>
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
              <List size="sm" spacing={2} aria-label="Your licenses">
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
                title="Working offline"
                role="note"
              >
                Checked against the signed lease this machine keeps:{' '}
                {describeGraceRemaining(result.offline.grace_remaining_seconds)} of offline use left.
              </Notice>
            ) : null}
            <div>
              <Text size="sm" fw={600}>
                What to do
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
            <Text size="sm">Checking the license…</Text>
          </Group>
        ) : (
          <Text size="sm">Not checked yet.</Text>
        )}
      </div>
      <Group>
        <Button variant="light" onClick={onCheck} loading={checking}>
          Check license status
        </Button>
      </Group>
    </SectionCard>
  );
}
