import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { optionsIn } from '../options-in';
import { Alert, Group, NativeSelect, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import type { AdminUser, AdminUserDetail } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/screen-messages';
import { AlertIcon } from '../../../components/brand/icons';
import { EmailField } from '../../../components/forms/email-field';
import { FormDialog } from '../../../components/forms/form-dialog';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { useUpdateUserMutation } from '../admin-endpoints';
import { ROLE_OPTIONS, USER_STATUS_OPTIONS } from './user-format';
import {
  EDIT_USER_FIELDS,
  editUserFormSchema,
  type EditUserValues,
  editValuesOf,
  toUpdateUserRequest,
} from './user-forms';
import { schemaResolver } from '../../../components/forms/schema-resolver';

export interface EditUserModalProps {
  /** The account being edited; null keeps the modal closed. */
  user: AdminUser | null;
  onClose: () => void;
  onSaved: (user: AdminUserDetail) => void;
}

/**
 * "Edit user": e-mail, name, company, role and status. Only changed fields are sent. The server
 * refuses changes to one's own role or status (400) and removing the last administrator (409):
 * its message shows in the form.
 */
export function EditUserModal({ user, onClose, onSaved }: EditUserModalProps) {
  const { t, i18n } = useLingui();
  const [updateUser] = useUpdateUserMutation();
  const { form, restart, dialog } = useDialogForm<EditUserValues>({
    initialValues: user ? editValuesOf(user) : editValuesOf(placeholder),
    validate: schemaResolver(editUserFormSchema),
    fields: EDIT_USER_FIELDS,
    failedMessage: adminMessages.updateUserFailed,
    save: async (values) => {
      if (!user) return;
      const changes = toUpdateUserRequest(user, values);
      if (!changes) return onClose();
      const saved = await updateUser({ id: user.id, changes }).unwrap();
      notifications.show({
        color: 'teal',
        title: t`User updated`,
        message: t`${ph({ email: saved.email })} is saved.`,
      });
      onSaved(saved);
    },
  });

  // A different account (or the same one after a save) starts from its current values.
  useEffect(() => {
    if (user) restart(editValuesOf(user));
  }, [user, restart]);

  const endsSessions =
    !!user &&
    (form.values.role !== user.role || (form.values.status === 'disabled' && user.status !== 'disabled'));

  return (
    <FormDialog
      opened={user !== null}
      onClose={onClose}
      title={user ? t`Edit ${ph({ email: user.email })}` : t`Edit user`}
      size="lg"
      {...dialog}
      failureTitle={t`Could not save the user`}
      submitLabel={t`Save changes`}
      submitDisabled={!form.isDirty()}
    >
      <EmailField autoComplete="off" {...form.getInputProps('email')} />
      <Group grow align="flex-start" gap="md" wrap="wrap">
        <TextInput label={t`Full name`} autoComplete="off" miw={200} {...form.getInputProps('full_name')} />
        <TextInput label={t`Company`} autoComplete="off" miw={200} {...form.getInputProps('company')} />
      </Group>
      <Group grow align="flex-start" gap="md" wrap="wrap">
        <NativeSelect
          label={t`Role`}
          data={optionsIn(i18n, ROLE_OPTIONS)}
          size="md"
          miw={160}
          {...form.getInputProps('role')}
        />
        <NativeSelect
          label={t`Status`}
          description={t`A disabled account cannot sign in.`}
          data={optionsIn(i18n, USER_STATUS_OPTIONS)}
          size="md"
          miw={160}
          {...form.getInputProps('status')}
        />
      </Group>
      {endsSessions && (
        <Alert color="yellow" variant="light" icon={<AlertIcon size={18} />}>
          <Trans>Saving signs this user out everywhere at once.</Trans>
        </Alert>
      )}
    </FormDialog>
  );
}

const placeholder: AdminUser = {
  id: '',
  email: '',
  full_name: null,
  company: null,
  role: 'user',
  status: 'active',
  email_verified: true,
  last_sign_in_at: null,
  created_at: '',
  updated_at: '',
};
