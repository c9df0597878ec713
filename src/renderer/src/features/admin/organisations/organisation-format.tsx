import { Badge, Text } from '@mantine/core';
import type { OrganisationRole, OrganisationSeats } from '../../../../../shared/api/organisations';
import { formatNumber } from '../../licenses';
import type { AdminOrganisationDetail } from './admin-organisations-endpoints';

export type OrganisationMemberRow = AdminOrganisationDetail['members'][number];
export type OrganisationInvitationRow = AdminOrganisationDetail['invitations'][number];
export type SeatMachine = OrganisationMemberRow['machines'][number];

export const ORGANISATION_ROLE_LABELS: Record<OrganisationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
};

/** The owner stands out, admins are tinted, members read as plain text. */
export function OrganisationRoleBadge({ role }: { role: OrganisationRole }) {
  return role === 'member' ? (
    <Badge variant="default" tt="none" size="md" fw={500} miw="max-content">
      {ORGANISATION_ROLE_LABELS.member}
    </Badge>
  ) : (
    // Light iris: the dark text on the tint passes AA in both schemes.
    <Badge
      variant={role === 'owner' ? 'outline' : 'light'}
      color="iris"
      tt="none"
      size="md"
      miw="max-content"
    >
      {ORGANISATION_ROLE_LABELS[role]}
    </Badge>
  );
}

/** "2 of 3": seats held by members of those bought; an organisation that bought none says so. */
export function SeatsUsed({ seats }: { seats: OrganisationSeats | null }) {
  if (!seats)
    return (
      <Text span size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        None bought
      </Text>
    );
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {formatNumber(seats.assigned)} of {formatNumber(seats.bought)}
    </Text>
  );
}

/** A machine's name for people: the one its user gave, else its device name. */
export const seatMachineName = (machine: SeatMachine) =>
  machine.label?.trim() || machine.device_name?.trim() || 'Unnamed machine';

/** A member's name for people, with the e-mail when there is no name. */
export const memberName = (member: Pick<OrganisationMemberRow, 'full_name' | 'email'>) =>
  member.full_name?.trim() || member.email;
