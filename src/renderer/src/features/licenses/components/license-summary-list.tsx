import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Badge, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { Fragment, useId } from 'react';
import { Link } from 'react-router-dom';
import type { LicenseCheckResult } from '../../../../../shared/bridge';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { KeyIcon } from '../../../components/brand/icons';
import type { LicenseRecord } from '../licenses-endpoints';
import { type LicenseFlag, activeHere } from '../license-flags';
import { expiryText, seatsText } from '../license-format';
import { LicenseFlagAlert } from './license-flag-alert';
import { LicenseStatusBadge } from './license-status-badge';

function LicenseRow({
  license,
  here,
  flag,
}: {
  license: LicenseRecord;
  here: boolean;
  flag: LicenseFlag | undefined;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const plan = license.plan.name;
  const name = t`${plan} license`;
  return (
    <Stack gap="xs" component="article" aria-labelledby={titleId} data-testid="license-summary">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Anchor
            component={Link}
            to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
            fw={600}
            id={titleId}
          >
            {name}
          </Anchor>
          <LicenseStatusBadge status={license.status} size="md" />
          {here ? (
            <Badge variant="light" color="iris" size="md" tt="none">
              <Trans>On this machine</Trans>
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {expiryText(license)} · {seatsText(license.activations_used, license.max_activations)}
        </Text>
      </Group>
      {flag ? <LicenseFlagAlert flag={flag} licenseName={name} /> : null}
    </Stack>
  );
}

/**
 * The dashboard's "Your licenses": each license with its own status (apart from this machine's),
 * and a flag with what to do for one that is revoked, suspended, expired or expiring soon.
 */
export function LicenseSummaryList({
  licenses,
  check,
  flags,
}: {
  licenses: LicenseRecord[];
  check: LicenseCheckResult | null;
  flags: Map<string, LicenseFlag>;
}) {
  const headingId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <KeyIcon size={20} />
            <Title order={2} size="h3" id={headingId}>
              <Trans>Your licenses</Trans>
            </Title>
          </Group>
          <Anchor component={Link} to={portalPaths.licenses} size="sm" fw={600}>
            <Trans>Keys and seats</Trans>
          </Anchor>
        </Group>
        {licenses.map((license, index) => (
          <Fragment key={license.license_id}>
            {index > 0 ? <Divider /> : null}
            <LicenseRow
              license={license}
              here={activeHere(check, license)}
              flag={flags.get(license.license_id)}
            />
          </Fragment>
        ))}
      </Stack>
    </Card>
  );
}
