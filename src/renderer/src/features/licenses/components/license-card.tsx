import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { ArrowRightIcon } from '../../../components/brand/icons';
import type { LicenseCheckResult } from '../../../../../shared/bridge';
import { ActivateOnThisMachine } from './activate-on-this-machine';
import { LicenseFlagAlert } from './license-flag-alert';
import { LicenseStatusBadge } from './license-status-badge';
import { MaskedLicenseKey } from './masked-license-key';
import { ProvidedBy, SeatMachines } from './provided-license';
import { SeatMeter } from './seat-meter';
import { type LicenseFlag, activationOption, seatActivationOption } from '../license-flags';
import { expiryText } from '../license-format';
import type { LicenseRecord } from '../license-slice';

const INTERVALS = {
  month: msg`Monthly plan`,
  year: msg`Yearly plan`,
  lifetime: msg`Lifetime plan`,
  free: msg`Free plan`,
} as const;

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={4} miw={0}>
      <Text size="xs" fw={600} c="dimmed" tt="uppercase" lts={0.4}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/**
 * One license in the list: plan, status and what to do about it, key (masked, reveal, copy),
 * expiry, seats, a link to its details and "Activate on this machine" where that applies. An
 * organisation's license shows who provides it and the user's own machines on their seat instead
 * of the key and the seats. `check` is this machine's status check: it tells whether this machine
 * uses the license.
 */
export function LicenseCard({
  license,
  check,
  flag,
}: {
  license: LicenseRecord;
  check: LicenseCheckResult | null;
  flag?: LicenseFlag;
}) {
  const { t } = useLingui();
  const titleId = useId();
  const plan = license.plan.name;
  const name = t`${plan} license`;
  const { organisation } = license;
  const option = organisation ? seatActivationOption(license, check) : activationOption(license, check);
  return (
    <Card withBorder padding="lg" component="article" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4}>
            <Group gap="xs" wrap="wrap">
              <Title order={3} size="h4" id={titleId}>
                {name}
              </Title>
              <LicenseStatusBadge status={license.status} size="md" />
              {option.kind === 'here' ? (
                <Badge variant="light" color="iris" size="md" tt="none">
                  <Trans>Active on this machine</Trans>
                </Badge>
              ) : null}
            </Group>
            <Text size="sm" c="dimmed">
              {t(INTERVALS[license.plan.billing_interval])} · {expiryText(license)}
            </Text>
          </Stack>
          <Button
            component={Link}
            to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
            variant="light"
            size="sm"
            rightSection={<ArrowRightIcon size={16} />}
            aria-label={t`Details of the ${name}`}
          >
            <Trans>Details</Trans>
          </Button>
        </Group>
        {flag ? <LicenseFlagAlert flag={flag} licenseName={name} /> : null}
        {organisation ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Field label={t`License`}>
              <ProvidedBy organisation={organisation} />
            </Field>
            <Field label={t`Your machines`}>
              <SeatMachines license={license} />
            </Field>
          </SimpleGrid>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Field label={t`License key`}>
              <MaskedLicenseKey licenseKey={license.license_key} />
            </Field>
            <Field label={t`Seats`}>
              <SeatMeter used={license.activations_used} allowed={license.max_activations} />
            </Field>
          </SimpleGrid>
        )}
        {/* Until this machine is checked, it is not known whether it already uses the license. */}
        {check ? <ActivateOnThisMachine license={license} option={option} /> : null}
      </Stack>
    </Card>
  );
}
