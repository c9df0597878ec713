import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { KeyIcon } from '../../../components/brand/icons';
import type { ActivationOption } from '../license-flags';
import type { LicenseRecord } from '../licenses-endpoints';
import { useActivateHere } from '../use-activate-here';
import { RefusalAlert } from './activate-key-form';

/**
 * A license card's "Activate on this machine": activates it here in one click (no key to copy),
 * or, when every seat is taken, says so beside the disabled button with the way to free one.
 * Nothing for a license this machine already uses or one that cannot be used (its flag says why).
 */
export function ActivateOnThisMachine({
  license,
  option,
}: {
  license: LicenseRecord;
  option: ActivationOption;
}) {
  const reasonId = useId();
  const { t } = useLingui();
  const { activateHere, activating, refusal } = useActivateHere();
  if (option.kind === 'here' || option.kind === 'unusable') return null;
  const plan = license.plan.name;
  const name = t`${plan} license`;
  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap" align="center">
        <Button
          onClick={() => void activateHere(license)}
          loading={activating}
          disabled={option.kind === 'full'}
          leftSection={<KeyIcon size={18} />}
          aria-label={t`Activate on this machine: ${name}`}
          aria-describedby={option.kind === 'full' ? reasonId : undefined}
        >
          <Trans>Activate on this machine</Trans>
        </Button>
        {option.kind === 'full' ? (
          <Text size="sm" id={reasonId} data-testid="activation-blocked" style={{ flex: '1 1 16rem' }}>
            {option.reason}{' '}
            <Anchor
              component={Link}
              to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
              size="sm"
              underline="always"
            >
              <Trans>Free a seat</Trans>
            </Anchor>
          </Text>
        ) : null}
      </Group>
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
    </Stack>
  );
}
