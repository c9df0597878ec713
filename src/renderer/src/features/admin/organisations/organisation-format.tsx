import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Text } from '@mantine/core';
import type { OrganisationRole, OrganisationSeats } from '../../../../../shared/api/organisations';
import { formatNumber } from '../../licenses';
import type { AdminOrganisationDetail } from './admin-organisations-endpoints';

export type OrganisationMemberRow = AdminOrganisationDetail['members'][number];
export type OrganisationInvitationRow = AdminOrganisationDetail['invitations'][number];
export type SeatMachine = OrganisationMemberRow['machines'][number];

/** Each role in words (render with the shown language's `i18n._`). */
export const ORGANISATION_ROLE_LABELS: Record<OrganisationRole, MessageDescriptor> = {
  owner: msg`Owner`,
  admin: msg`Admin`,
  member: msg`Member`,
};

/** The owner stands out, admins are tinted, members read as plain text. */
export function OrganisationRoleBadge({ role }: { role: OrganisationRole }) {
  const { i18n } = useLingui();
  return role === 'member' ? (
    <Badge variant="default" tt="none" size="md" fw={500} miw="max-content">
      {i18n._(ORGANISATION_ROLE_LABELS.member)}
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
      {i18n._(ORGANISATION_ROLE_LABELS[role])}
    </Badge>
  );
}

/** "2 of 3": seats held by members of those bought; an organisation that bought none says so. */
export function SeatsUsed({ seats }: { seats: OrganisationSeats | null }) {
  if (!seats)
    return (
      <Text span size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        <Trans>None bought</Trans>
      </Text>
    );
  const assigned = formatNumber(seats.assigned);
  const bought = formatNumber(seats.bought);
  return (
    <Text span size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      <Trans>
        {assigned} of {bought}
      </Trans>
    </Text>
  );
}

/** A machine's name for people: the one its user gave, else its device name. */
export const seatMachineName = (machine: SeatMachine) =>
  machine.label?.trim() || machine.device_name?.trim() || t`Unnamed machine`;

/** A member's name for people, with the e-mail when there is no name. */
export const memberName = (member: Pick<OrganisationMemberRow, 'full_name' | 'email'>) =>
  member.full_name?.trim() || member.email;
