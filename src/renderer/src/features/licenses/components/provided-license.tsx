import { Trans } from '@lingui/react/macro';
import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { License, LicenseOrganisation } from '../../../../../shared/api/licenses';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { formatRelative } from '../license-format';
import { machineName } from './activations-table';

/**
 * Who provides an organisation's license: its members use it on their seats and never see its
 * key, so the organisation stands where the key would.
 */
export function ProvidedBy({ organisation }: { organisation: LicenseOrganisation }) {
  const provider = organisation.name;
  return (
    <Text size="sm" data-testid="provided-by">
      <Trans>
        Provided by{' '}
        <Anchor
          component={Link}
          to={pathWith(portalPaths.organisationDetail, { organisationId: organisation.id })}
          size="sm"
          fw={600}
          underline="always"
        >
          {provider}
        </Anchor>
      </Trans>
    </Text>
  );
}

/** The member's own machines on their seat, with when each last checked in. */
export function SeatMachines({ license }: { license: Pick<License, 'activations'> }) {
  const machines = (license.activations ?? []).filter((activation) => activation.deactivated_at === null);
  if (machines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <Trans>None yet: activate this machine to use the license here.</Trans>
      </Text>
    );
  return (
    <List size="sm" spacing={4} data-testid="seat-machines">
      {machines.map((activation) => {
        const seen = formatRelative(activation.last_seen_at);
        return (
          <List.Item key={activation.activation_id} style={{ overflowWrap: 'anywhere' }}>
            {machineName(activation)}{' '}
            <Text span size="xs" c="dimmed">
              <Trans>· seen {seen}</Trans>
            </Text>
          </List.Item>
        );
      })}
    </List>
  );
}
