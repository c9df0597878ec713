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
  return (
    <Text size="sm" data-testid="provided-by">
      Provided by{' '}
      <Anchor
        component={Link}
        to={pathWith(portalPaths.organisationDetail, { organisationId: organisation.id })}
        size="sm"
        fw={600}
        underline="always"
      >
        {organisation.name}
      </Anchor>
    </Text>
  );
}

/** The member's own machines on their seat, with when each last checked in. */
export function SeatMachines({ license }: { license: Pick<License, 'activations'> }) {
  const machines = (license.activations ?? []).filter((activation) => activation.deactivated_at === null);
  if (machines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        None yet: activate this machine to use the license here.
      </Text>
    );
  return (
    <List size="sm" spacing={4} data-testid="seat-machines">
      {machines.map((activation) => (
        <List.Item key={activation.activation_id} style={{ overflowWrap: 'anywhere' }}>
          {machineName(activation)}{' '}
          <Text span size="xs" c="dimmed">
            · seen {formatRelative(activation.last_seen_at)}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
