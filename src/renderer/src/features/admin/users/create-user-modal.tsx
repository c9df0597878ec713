import { optionsIn } from '../options-in';
import { useLingui } from '@lingui/react/macro';
import { Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { schemaResolver } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import type { AdminUserDetail } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/messages';
import { EmailField } from '../../../components/forms/email-field';
import { FormDialog } from '../../../components/forms/form-dialog';
import { PasswordField } from '../../../components/forms/password-field';
import { useDialogForm } from '../../../components/forms/use-dialog-form';
import { PasswordStrengthMeter } from '../../auth';
import { useCreateUserMutation } from '../admin-endpoints';
import { ROLE_OPTIONS } from './user-format';
import {
  CREATE_USER_FIELDS,
  createUserFormSchema,
  type CreateUserValues,
  emptyCreateUser,
  toCreateUserRequest,
} from './user-forms';

export interface CreateUserModalProps {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: AdminUserDetail) => void;
}

/**
 * "New user": e-mail, name, company, a password (the server checks it like a registration's and
 * sends no e-mail, so the administrator hands it over) and the role. The address counts as confirmed.
 */
export function CreateUserModal({ opened, onClose, onCreated }: CreateUserModalProps) {
  const { i18n } = useLingui();
  const [createUser] = useCreateUserMutation();
  const { form, restart, dialog } = useDialogForm<CreateUserValues>({
    initialValues: emptyCreateUser,
    validate: schemaResolver(createUserFormSchema, { sync: true }),
    fields: CREATE_USER_FIELDS,
    failedMessage: adminMessages.createUserFailed,
    save: async (values) => {
      const user = await createUser(toCreateUserRequest(values)).unwrap();
      notifications.show({
        color: 'teal',
        title: 'User created',
        message: `${user.email} can sign in with the password you set.`,
      });
      restart(emptyCreateUser);
      onCreated(user);
    },
  });

  const close = () => {
    restart(emptyCreateUser);
    onClose();
  };

  return (
    <FormDialog
      opened={opened}
      onClose={close}
      title="New user"
      size="lg"
      {...dialog}
      failureTitle="Could not create the user"
      submitLabel="Create user"
    >
      <EmailField autoComplete="off" data-autofocus {...form.getInputProps('email')} />
      <Group grow align="flex-start" gap="md" wrap="wrap">
        <TextInput label="Full name" autoComplete="off" miw={200} {...form.getInputProps('full_name')} />
        <TextInput label="Company" autoComplete="off" miw={200} {...form.getInputProps('company')} />
      </Group>
      <div>
        <PasswordField
          label="Password"
          description="The user signs in with it; no e-mail is sent, so pass it on securely."
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordStrengthMeter password={form.values.password} email={form.values.email} />
      </div>
      <NativeSelect
        label="Role"
        data={optionsIn(i18n, ROLE_OPTIONS)}
        size="md"
        {...form.getInputProps('role')}
      />
      {form.values.role === 'admin' && (
        <Text size="sm" c="dimmed">
          Administrators can manage every account, license and payment.
        </Text>
      )}
    </FormDialog>
  );
}
