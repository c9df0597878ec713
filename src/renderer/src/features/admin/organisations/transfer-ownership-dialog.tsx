import { Trans, useLingui } from '@lingui/react/macro';
import { NativeSelect, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { showToast } from '../../../components/data/toast';
import {
  adminOrganisationMessages,
  useAdminTransferOrganisationOwnershipMutation,
} from './admin-organisations-endpoints';
import { memberName, type OrganisationMemberRow } from './organisation-format';

export interface TransferOwnershipDialogProps {
  opened: boolean;
  organisationId: string;
  organisationName: string;
  members: OrganisationMemberRow[];
  onClose: () => void;
}

/**
 * Ownership passes to another member: they become the owner (and the license's holder), the owner
 * before them an admin. A native select, so a keyboard and a phone pick a member the usual way.
 */
export function TransferOwnershipDialog({
  opened,
  organisationId,
  organisationName,
  members,
  onClose,
}: TransferOwnershipDialogProps) {
  const { t } = useLingui();
  const [transfer] = useAdminTransferOrganisationOwnershipMutation();
  const candidates = members.filter((member) => member.role !== 'owner');
  const owner = members.find((member) => member.role === 'owner');
  const [userId, setUserId] = useState('');
  useEffect(() => {
    if (opened) setUserId('');
  }, [opened]);
  const chosen = candidates.find((member) => member.user_id === userId);
  const ownerName = owner ? memberName(owner) : t`the owner`;

  return (
    <ConfirmDialog
      opened={opened}
      title={t`Transfer ownership of ${organisationName}`}
      confirmLabel={t`Transfer ownership`}
      failureTitle={t`Could not transfer ownership`}
      fallback={adminOrganisationMessages.transferOwnershipFailed}
      onClose={onClose}
      onConfirm={async () => {
        if (!chosen) throw new Error(t`Choose the member who becomes the owner`);
        await transfer({ organisationId, userId: chosen.user_id }).unwrap();
        const newOwner = memberName(chosen);
        showToast({
          title: t`Ownership transferred`,
          message: t`${newOwner} owns ${organisationName} now.`,
        });
        onClose();
      }}
    >
      <Text size="sm">
        <Trans>
          The new owner holds the organization’s license and its billing; {ownerName} stays as an admin.
        </Trans>
      </Text>
      <NativeSelect
        label={t`New owner`}
        value={userId}
        onChange={(event) => setUserId(event.currentTarget.value)}
        data={[
          { value: '', label: candidates.length ? t`Choose a member` : t`No other member yet` },
          ...candidates.map((member) => ({
            value: member.user_id,
            label: member.full_name?.trim() ? `${member.full_name.trim()} (${member.email})` : member.email,
          })),
        ]}
      />
    </ConfirmDialog>
  );
}
