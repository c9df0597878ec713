import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const machinesLine = (member: OrganisationMemberRow) => {
  const count = member.machines.length;
  if (count === 0) return t`They have no machine on it now.`;
  return plural(count, {
    one: 'Their machine stops working at the next license check, with a message naming the organization.',
    other: 'Their # machines stop working at the next license check, with a message naming the organization.',
  });
};

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
  const { t } = useLingui();
  const [removeMember] = useAdminRemoveOrganisationMemberMutation();
  const [unassignSeat] = useAdminUnassignOrganisationSeatMutation();
  const [revokeInvitation] = useAdminRevokeOrganisationInvitationMutation();

  if (action?.kind === 'revoke') {
    const { invitation } = action;
    const email = invitation.email;
    return (
      <ConfirmDialog
        opened
        title={t`Revoke the invitation of ${email}?`}
        confirmLabel={t`Revoke invitation`}
        failureTitle={t`Could not revoke the invitation`}
        fallback={adminOrganisationMessages.revokeInvitationFailed}
        onClose={onClose}
        onConfirm={async () => {
          await revokeInvitation({ organisationId, invitationId: invitation.id }).unwrap();
          showToast({ title: t`Invitation revoked`, message: t`${email} can no longer join.` });
          onClose();
        }}
      >
        <Text size="sm">
          <Trans>
            The link in the mail stops working, and the seat it was keeping is free for another invitation.
          </Trans>
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
      title={removing ? t`Remove ${name} from ${organisationName}?` : t`Take back the seat of ${name}?`}
      confirmLabel={removing ? t`Remove member` : t`Take back seat`}
      failureTitle={removing ? t`Could not remove the member` : t`Could not take back the seat`}
      fallback={
        removing ? adminOrganisationMessages.removeMemberFailed : adminOrganisationMessages.unassignSeatFailed
      }
      onClose={onClose}
      onConfirm={async () => {
        if (!member) return;
        const ref = { organisationId, userId: member.user_id };
        if (removing) {
          await removeMember(ref).unwrap();
          showToast({ title: t`Member removed`, message: t`${name} is no longer in ${organisationName}.` });
        } else {
          await unassignSeat(ref).unwrap();
          showToast({ title: t`Seat taken back`, message: t`The seat of ${name} is free.` });
        }
        onClose();
      }}
    >
      {member ? (
        <Text size="sm">
          {removing
            ? member.has_seat
              ? t`${name} leaves ${organisationName} and their seat is freed.`
              : t`${name} leaves ${organisationName}.`
            : t`${name} stays in ${organisationName} without a seat.`}{' '}
          {member.has_seat ? machinesLine(member) : null}
        </Text>
      ) : null}
    </ConfirmDialog>
  );
}
