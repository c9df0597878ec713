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
  const [transfer] = useAdminTransferOrganisationOwnershipMutation();
  const candidates = members.filter((member) => member.role !== 'owner');
  const owner = members.find((member) => member.role === 'owner');
  const [userId, setUserId] = useState('');
  useEffect(() => {
    if (opened) setUserId('');
  }, [opened]);
  const chosen = candidates.find((member) => member.user_id === userId);

  return (
    <ConfirmDialog
      opened={opened}
      title={`Transfer ownership of ${organisationName}`}
      confirmLabel="Transfer ownership"
      failureTitle="Could not transfer ownership"
      fallback={adminOrganisationMessages.transferOwnershipFailed}
      onClose={onClose}
      onConfirm={async () => {
        if (!chosen) throw new Error('Choose the member who becomes the owner');
        await transfer({ organisationId, userId: chosen.user_id }).unwrap();
        showToast({
          title: 'Ownership transferred',
          message: `${memberName(chosen)} owns ${organisationName} now.`,
        });
        onClose();
      }}
    >
      <Text size="sm">
        The new owner holds the organization’s license and its billing;{' '}
        {owner ? memberName(owner) : 'the owner'} stays as an admin.
      </Text>
      <NativeSelect
        label="New owner"
        value={userId}
        onChange={(event) => setUserId(event.currentTarget.value)}
        data={[
          { value: '', label: candidates.length ? 'Choose a member' : 'No other member yet' },
          ...candidates.map((member) => ({
            value: member.user_id,
            label: member.full_name?.trim() ? `${member.full_name.trim()} (${member.email})` : member.email,
          })),
        ]}
      />
    </ConfirmDialog>
  );
}
