import { Trans, useLingui } from '@lingui/react/macro';
import { ph } from '@lingui/core/macro';
import { optionsIn } from '../options-in';
import { Group, NativeSelect, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { AdminUserDetail } from '../../../../../shared/api/admin';
import { adminMessages } from '../../../../../shared/screen-messages';
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
import { schemaResolver } from '../../../components/forms/schema-resolver';

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
  const { t, i18n } = useLingui();
  const [createUser] = useCreateUserMutation();
  const { form, restart, dialog } = useDialogForm<CreateUserValues>({
    initialValues: emptyCreateUser,
    validate: schemaResolver(createUserFormSchema),
    fields: CREATE_USER_FIELDS,
    failedMessage: adminMessages.createUserFailed,
    save: async (values) => {
      const user = await createUser(toCreateUserRequest(values)).unwrap();
      notifications.show({
        color: 'teal',
        title: t`User created`,
        message: t`${ph({ email: user.email })} can sign in with the password you set.`,
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
      title={t`New user`}
      size="lg"
      {...dialog}
      failureTitle={t`Could not create the user`}
      submitLabel={t`Create user`}
    >
      <EmailField autoComplete="off" data-autofocus {...form.getInputProps('email')} />
      <Group grow align="flex-start" gap="md" wrap="wrap">
        <TextInput label={t`Full name`} autoComplete="off" miw={200} {...form.getInputProps('full_name')} />
        <TextInput label={t`Company`} autoComplete="off" miw={200} {...form.getInputProps('company')} />
      </Group>
      <div>
        <PasswordField
          label={t`Password`}
          description={t`The user signs in with it; no e-mail is sent, so pass it on securely.`}
          autoComplete="new-password"
          required
          {...form.getInputProps('password')}
        />
        <PasswordStrengthMeter password={form.values.password} email={form.values.email} />
      </div>
      <NativeSelect
        label={t`Role`}
        data={optionsIn(i18n, ROLE_OPTIONS)}
        size="md"
        {...form.getInputProps('role')}
      />
      {form.values.role === 'admin' && (
        <Text size="sm" c="dimmed">
          <Trans>Administrators can manage every account, license and payment.</Trans>
        </Text>
      )}
    </FormDialog>
  );
}
