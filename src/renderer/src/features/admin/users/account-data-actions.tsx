import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
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
  const { t } = useLingui();
  const [requestExport, { isLoading: exporting }] = useRequestUserDataExportMutation();
  const [eraseUser] = useEraseUserMutation();
  const [erasing, setErasing] = useState(false);
  const [reason, setReason] = useState('');

  const exportData = async () => {
    try {
      await requestExport(user.id).unwrap();
      notifications.show({
        color: 'teal',
        title: t`Data export asked for`,
        message: t`The link to the archive is mailed to ${ph({ email: user.email })} when it is ready.`,
      });
    } catch (failure) {
      notifications.show({
        color: 'red',
        title: failureMessage(failure, adminAccountDataMessages.exportFailed),
        message: t`Nothing was asked for.`,
      });
    }
  };

  return (
    <>
      <Group gap="sm">
        <Button variant="default" onClick={() => void exportData()} loading={exporting}>
          <Trans>Export data</Trans>
        </Button>
        <Button variant="light" color="red" onClick={() => setErasing(true)}>
          <Trans>Erase account…</Trans>
        </Button>
      </Group>
      <ConfirmDialog
        opened={erasing}
        title={t`Erase ${ph({ email: user.email })}?`}
        confirmLabel={t`Erase account`}
        failureTitle={t`Could not erase the account`}
        fallback={adminAccountDataMessages.eraseFailed}
        onClose={() => {
          setErasing(false);
          setReason('');
        }}
        onConfirm={async () => {
          await eraseUser({ id: user.id, reason: reason.trim() }).unwrap();
          notifications.show({
            color: 'teal',
            title: t`Account erased`,
            message: t`Its invoices and payments are kept.`,
          });
          setErasing(false);
          setReason('');
          onErased();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            <Trans>
              Now, with no grace period: subscriptions are cancelled, licenses end, and the personal data is
              erased. Invoices, credit notes and payments are kept as issued; the security log keeps the
              account’s id only.
            </Trans>
          </Text>
          <TextInput
            label={t`Reason`}
            description={t`Kept in the security log.`}
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
