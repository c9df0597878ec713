import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/messages';
import { useAppDispatch } from '../../../app/hooks';
import { FormAlert } from '../../../components/forms/form-alert';
import { deleteUser } from '../admin-slice';

export interface DeleteUserModalProps {
  user: AdminUser | null;
  onClose: () => void;
  onDeleted: (id: string) => void;
}

/** Confirms deleting an account, naming it and what goes with it; the server's refusal shows here. */
export function DeleteUserModal({ user, onClose, onDeleted }: DeleteUserModalProps) {
  const dispatch = useAppDispatch();
  const [failure, setFailure] = useState<string>();
  const [deleting, setDeleting] = useState(false);
  useEffect(() => setFailure(undefined), [user]);

  const confirm = async () => {
    if (!user) return;
    setFailure(undefined);
    setDeleting(true);
    try {
      await dispatch(deleteUser(user.id)).unwrap();
      notifications.show({ color: 'teal', title: 'User deleted', message: `${user.email} was deleted.` });
      onDeleted(user.id);
    } catch (error) {
      setFailure(typeof error === 'string' ? error : adminMessages.deleteUserFailed);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Modal opened={user !== null} onClose={onClose} title={user ? `Delete ${user.email}?` : 'Delete user?'}>
      <Stack gap="md">
        {failure && <FormAlert title="Could not delete the user">{failure}</FormAlert>}
        <Text size="sm">
          The account is deleted with its sessions, licenses, machine activations and usage. Its payments are
          kept for your records. This cannot be undone.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          {/* Filled red.9 keeps white text above 4.5:1 in both schemes. */}
          <Button color="red.9" onClick={() => void confirm()} loading={deleting}>
            Delete user
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
