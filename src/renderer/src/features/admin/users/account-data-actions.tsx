import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { failureMessage } from '../../../lib/api-errors';
import {
  adminAccountDataMessages,
  useEraseUserMutation,
  useRequestUserDataExportMutation,
} from './account-data-endpoints';

/**
 * The user's own data, for an administrator: an archive of it (mailed to the user, as if they had
 * asked), and erasing the account now with a reason the security log keeps.
 */
export function AccountDataActions({ user, onErased }: { user: AdminUser; onErased: () => void }) {
  const [requestExport, { isLoading: exporting }] = useRequestUserDataExportMutation();
  const [eraseUser] = useEraseUserMutation();
  const [erasing, setErasing] = useState(false);
  const [reason, setReason] = useState('');

  const exportData = async () => {
    try {
      await requestExport(user.id).unwrap();
      notifications.show({
        color: 'teal',
        title: 'Data export asked for',
        message: `The link to the archive is mailed to ${user.email} when it is ready.`,
      });
    } catch (failure) {
      notifications.show({
        color: 'red',
        title: failureMessage(failure, adminAccountDataMessages.exportFailed),
        message: 'Nothing was asked for.',
      });
    }
  };

  return (
    <>
      <Group gap="sm">
        <Button variant="default" onClick={() => void exportData()} loading={exporting}>
          Export data
        </Button>
        <Button variant="light" color="red" onClick={() => setErasing(true)}>
          Erase account…
        </Button>
      </Group>
      <ConfirmDialog
        opened={erasing}
        title={`Erase ${user.email}?`}
        confirmLabel="Erase account"
        failureTitle="Could not erase the account"
        fallback={adminAccountDataMessages.eraseFailed}
        onClose={() => {
          setErasing(false);
          setReason('');
        }}
        onConfirm={async () => {
          await eraseUser({ id: user.id, reason: reason.trim() }).unwrap();
          notifications.show({
            color: 'teal',
            title: 'Account erased',
            message: 'Its invoices and payments are kept.',
          });
          setErasing(false);
          setReason('');
          onErased();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Now, with no grace period: subscriptions are cancelled, licenses end, and the personal data is
            erased. Invoices, credit notes and payments are kept as issued; the security log keeps the
            account’s id only.
          </Text>
          <TextInput
            label="Reason"
            description="Kept in the security log."
            required
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={500}
          />
        </Stack>
      </ConfirmDialog>
    </>
  );
}
