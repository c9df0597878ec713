import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { maskLicenseKey } from '../../../../../shared/license-key';
import type { LicenseCheckResult } from '../../../../../shared/bridge';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { DeviceIcon, KeyIcon } from '../../../components/brand/icons';
import { StatCard } from '../../../components/data/stat-card';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';
import { knownText } from '../../../lib/i18n/portal-i18n';
import type { LicenseRecord } from '../licenses-endpoints';
import { activationOption, seatActivationOption } from '../license-flags';
import { seatsText } from '../license-format';
import { useActivateHere } from '../use-activate-here';
import { RefusalAlert } from './activate-key-form';
import { ThisMachineUsageLine } from './this-machine-usage';

/** This machine's check in words: the badge, and a sentence that says which license it uses or why none. */
function machineState(
  check: LicenseCheckResult,
  used: LicenseRecord | undefined,
): { label: string; tone: StatusTone; summary: string; detail?: string } {
  const plan = used?.plan.name;
  if (check.valid)
    return {
      label: check.offline ? t`Activated here (offline)` : t`Activated here`,
      tone: 'positive',
      summary: plan
        ? t`This machine uses your ${plan} license.`
        : t`This machine uses a license shared with you.`,
      detail: check.offline ? knownText(check.message) : undefined,
    };
  if (check.status === 'not_configured')
    return {
      label: t`Not activated here`,
      tone: 'neutral',
      summary: t`No license is activated on this machine.`,
    };
  if (check.status === 'error')
    return {
      label: t`Not checked`,
      tone: 'caution',
      summary: t`This machine’s license could not be checked.`,
      detail: knownText(check.message),
    };
  return {
    label: t`Not activated here`,
    tone: 'negative',
    summary: t`The license kept on this machine cannot be used here.`,
    detail: knownText(check.message),
  };
}

/** How the choice names a license: an organisation's by who provides it, as its key is not shown. */
function optionLabel(license: LicenseRecord): string {
  const plan = license.plan.name;
  if (license.organisation) {
    const provider = license.organisation.name;
    return t`${plan} · provided by ${provider}`;
  }
  return `${plan} · ${maskLicenseKey(license.license_key)} · ${seatsText(license.activations_used, license.max_activations)}`;
}

/**
 * "Activate this machine" on the dashboard: with one license that can take this machine it
 * activates at once; with several it asks which; with none it says why and where to go.
 */
function ActivateThisMachine({ licenses, check }: { licenses: LicenseRecord[]; check: LicenseCheckResult }) {
  const { t } = useLingui();
  const { activateHere, activating, refusal } = useActivateHere();
  const [chosen, setChosen] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const options = licenses.map((license) => ({
    license,
    option: license.organisation ? seatActivationOption(license, check) : activationOption(license, check),
  }));
  const available = options.filter(({ option }) => option.kind === 'available').map(({ license }) => license);
  const full = options.find(({ option }) => option.kind === 'full')?.license;

  if (available.length === 0)
    return (
      <Text size="sm" data-testid="machine-next-step">
        {full ? (
          <Trans>
            Every seat of your licenses is in use.{' '}
            <Anchor
              component={Link}
              to={pathWith(portalPaths.licenseDetail, { licenseId: full.license_id })}
              size="sm"
              underline="always"
            >
              Free a seat
            </Anchor>{' '}
            to activate this machine.
          </Trans>
        ) : (
          <Trans>
            None of your licenses can be used right now.{' '}
            <Anchor component={Link} to={portalPaths.purchase} size="sm" underline="always">
              Get a plan
            </Anchor>{' '}
            to use this machine.
          </Trans>
        )}
      </Text>
    );

  const single = available.length === 1 ? available[0] : undefined;
  const singlePlan = single?.plan.name;
  const singleProvider = single?.organisation?.name;
  const singleSeats = single ? seatsText(single.activations_used, single.max_activations) : '';
  const activate = () => {
    const license = single ?? available.find((item) => item.license_id === chosen);
    if (!license) {
      setMissing(true);
      return;
    }
    void activateHere(license);
  };

  return (
    <Stack gap="xs">
      {single?.organisation ? (
        <Text size="sm" c="dimmed" data-testid="machine-next-step">
          <Trans>
            Uses your seat of the {singlePlan} license {singleProvider} provides.
          </Trans>
        </Text>
      ) : single ? (
        <Text size="sm" c="dimmed" data-testid="machine-next-step">
          <Trans>
            Takes one seat of your {singlePlan} license ({singleSeats}).
          </Trans>
        </Text>
      ) : (
        <NativeSelect
          label={t`License to use here`}
          data={[
            { value: '', label: t`Choose one of your licenses` },
            ...available.map((license) => ({ value: license.license_id, label: optionLabel(license) })),
          ]}
          value={chosen ?? ''}
          onChange={(event) => {
            setChosen(event.currentTarget.value || null);
            setMissing(false);
          }}
          error={missing ? t`Choose the license this machine should use` : undefined}
        />
      )}
      <Button
        onClick={activate}
        loading={activating}
        leftSection={<KeyIcon size={18} />}
        style={{ alignSelf: 'flex-start' }}
      >
        <Trans>Activate this machine</Trans>
      </Button>
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
    </Stack>
  );
}

/**
 * The dashboard's "This machine": whether this machine is activated and with which of the
 * customer's licenses, kept apart from the licenses' own status, and the next step when it is not.
 */
export function ThisMachineTile({
  check,
  checking,
  licenses,
  loading,
}: {
  check: LicenseCheckResult | null;
  checking: boolean;
  licenses: LicenseRecord[];
  /** The licenses are still being read: what this machine can be activated with is not known yet. */
  loading: boolean;
}) {
  const { t } = useLingui();
  const used = check?.valid ? licenses.find((license) => license.license_id === check.license_id) : undefined;
  const state = check ? machineState(check, used) : null;
  return (
    <StatCard
      label={t`This machine`}
      icon={<DeviceIcon size={18} />}
      loading={(checking && !check) || loading}
    >
      {check && state ? (
        <Stack gap="sm" style={{ flex: 1 }}>
          <Stack gap="sm" aria-live="polite">
            <StatusBadge tone={state.tone} data-testid="machine-verdict" style={{ alignSelf: 'flex-start' }}>
              {state.label}
            </StatusBadge>
            <Text size="sm" fw={500} data-testid="machine-summary">
              {state.summary}
            </Text>
            {state.detail ? (
              <Text size="sm" data-testid="license-status-message">
                {state.detail}
              </Text>
            ) : null}
            {check.valid ? <ThisMachineUsageLine features={used?.usage_info.features ?? []} /> : null}
          </Stack>
          {check.valid ? (
            used ? (
              <Anchor
                component={Link}
                to={pathWith(portalPaths.licenseDetail, { licenseId: used.license_id })}
                size="sm"
                fw={600}
                mt="auto"
              >
                <Trans>Open the license</Trans>
              </Anchor>
            ) : null
          ) : (
            <ActivateThisMachine licenses={licenses} check={check} />
          )}
        </Stack>
      ) : (
        <Text size="sm">
          <Trans>Not checked yet.</Trans>
        </Text>
      )}
    </StatCard>
  );
}
