import { Text } from '@mantine/core';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { showToast } from '../../../components/data/toast';
import {
  adminOrganisationMessages,
  useAdminRemoveOrganisationMemberMutation,
  useAdminRevokeOrganisationInvitationMutation,
  useAdminUnassignOrganisationSeatMutation,
} from './admin-organisations-endpoints';
import {
  memberName,
  type OrganisationInvitationRow,
  type OrganisationMemberRow,
} from './organisation-format';

/** A change to an organisation that ends something, asked for from its drawer and confirmed here. */
export type OrganisationAction =
  | { kind: 'remove'; member: OrganisationMemberRow }
  | { kind: 'unassign'; member: OrganisationMemberRow }
  | { kind: 'revoke'; invitation: OrganisationInvitationRow };

export interface OrganisationActionDialogProps {
  organisationId: string;
  organisationName: string;
  action: OrganisationAction | null;
  onClose: () => void;
}

const machinesLine = (member: OrganisationMemberRow) =>
  member.machines.length === 0
    ? 'They have no machine on it now.'
    : `Their ${member.machines.length === 1 ? 'machine stops' : `${member.machines.length} machines stop`} working at the next license check, with a message naming the organization.`;

/**
 * Removing a member, taking back a seat and revoking an invitation: each names who it concerns and
 * what stops working; the server's refusal (the owner cannot be removed, say) stays in the dialog.
 */
export function OrganisationActionDialog({
  organisationId,
  organisationName,
  action,
  onClose,
}: OrganisationActionDialogProps) {
  const [removeMember] = useAdminRemoveOrganisationMemberMutation();
  const [unassignSeat] = useAdminUnassignOrganisationSeatMutation();
  const [revokeInvitation] = useAdminRevokeOrganisationInvitationMutation();

  if (action?.kind === 'revoke') {
    const { invitation } = action;
    return (
      <ConfirmDialog
        opened
        title={`Revoke the invitation of ${invitation.email}?`}
        confirmLabel="Revoke invitation"
        failureTitle="Could not revoke the invitation"
        fallback={adminOrganisationMessages.revokeInvitationFailed}
        onClose={onClose}
        onConfirm={async () => {
          await revokeInvitation({ organisationId, invitationId: invitation.id }).unwrap();
          showToast({ title: 'Invitation revoked', message: `${invitation.email} can no longer join.` });
          onClose();
        }}
      >
        <Text size="sm">
          The link in the mail stops working, and the seat it was keeping is free for another invitation.
        </Text>
      </ConfirmDialog>
    );
  }

  const member = action?.member;
  const name = member ? memberName(member) : '';
  const removing = action?.kind === 'remove';
  return (
    <ConfirmDialog
      opened={member !== undefined}
      title={removing ? `Remove ${name} from ${organisationName}?` : `Take back the seat of ${name}?`}
      confirmLabel={removing ? 'Remove member' : 'Take back seat'}
      failureTitle={removing ? 'Could not remove the member' : 'Could not take back the seat'}
      fallback={
        removing ? adminOrganisationMessages.removeMemberFailed : adminOrganisationMessages.unassignSeatFailed
      }
      onClose={onClose}
      onConfirm={async () => {
        if (!member) return;
        const ref = { organisationId, userId: member.user_id };
        if (removing) {
          await removeMember(ref).unwrap();
          showToast({ title: 'Member removed', message: `${name} is no longer in ${organisationName}.` });
        } else {
          await unassignSeat(ref).unwrap();
          showToast({ title: 'Seat taken back', message: `The seat of ${name} is free.` });
        }
        onClose();
      }}
    >
      {member ? (
        <Text size="sm">
          {removing
            ? `${name} leaves ${organisationName}${member.has_seat ? ' and their seat is freed' : ''}. `
            : `${name} stays in ${organisationName} without a seat. `}
          {member.has_seat ? machinesLine(member) : null}
        </Text>
      ) : null}
    </ConfirmDialog>
  );
}
