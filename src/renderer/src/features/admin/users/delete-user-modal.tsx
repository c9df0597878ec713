import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminUser } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/screen-messages';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { useDeleteUserMutation } from '../admin-endpoints';

export interface DeleteUserModalProps {
  user: AdminUser | null;
  onClose: () => void;
  onDeleted: (id: string) => void;
}

/** Confirms deleting an account, naming it and what goes with it; the server's refusal shows here. */
export function DeleteUserModal({ user, onClose, onDeleted }: DeleteUserModalProps) {
  const { t } = useLingui();
  const [deleteUser] = useDeleteUserMutation();
  return (
    <ConfirmDialog
      opened={user !== null}
      title={user ? t`Delete ${ph({ email: user.email })}?` : t`Delete user?`}
      confirmLabel={t`Delete user`}
      failureTitle={t`Could not delete the user`}
      fallback={adminMessages.deleteUserFailed}
      onClose={onClose}
      onConfirm={async () => {
        if (!user) return;
        await deleteUser(user.id).unwrap();
        notifications.show({
          color: 'teal',
          title: t`User deleted`,
          message: t`${ph({ email: user.email })} was deleted.`,
        });
        onDeleted(user.id);
      }}
    >
      <Text size="sm">
        <Trans>
          The account is deleted with its sessions, licenses, machine activations and usage. Its payments are
          kept for your records. This cannot be undone.
        </Trans>
      </Text>
    </ConfirmDialog>
  );
}
