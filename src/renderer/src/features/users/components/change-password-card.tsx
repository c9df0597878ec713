import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';
import { Button, Group } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { currentPasswordSchema, newPasswordSchema } from '../../../../../shared/api/common';
import { passwordContainsEmail } from '../../../../../shared/password-email-rule';
import { portalPaths } from '../../../../../shared/routes';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { FormAlert } from '../../../components/forms/form-alert';
import { PasswordField } from '../../../components/forms/password-field';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { SectionCard } from '../../../components/layout/section-card';
import { useAppDispatch } from '../../../lib/store-hooks';
import { PasswordStrengthMeter, signOut } from '../../auth';
import { changePasswordFailed, useChangeMyPasswordMutation } from '../users-endpoints';

const always = { when: () => true };
const passwordFormSchema = (email: string, i18n: I18n) =>
  z
    .object({
      currentPassword: currentPasswordSchema,
      newPassword: newPasswordSchema,
      confirmPassword: z.string().min(1, i18n._(msg`Type the new password again`)),
    })
    .refine((values) => values.newPassword === '' || values.newPassword !== values.currentPassword, {
      ...always,
      message: i18n._(msg`Choose a password different from the current one`),
      path: ['newPassword'],
    })
    .refine((values) => !passwordContainsEmail(values.newPassword, email), {
      ...always,
      message: i18n._(msg`Choose a password that does not contain your e-mail address`),
      path: ['newPassword'],
    })
    .refine((values) => values.confirmPassword === '' || values.newPassword === values.confirmPassword, {
      ...always,
      message: i18n._(msg`The passwords do not match`),
      path: ['confirmPassword'],
    });
type PasswordValues = { currentPassword: string; newPassword: string; confirmPassword: string };
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
const SERVER_FIELDS = {
  current_password: 'currentPassword',
  new_password: 'newPassword',
  password: 'newPassword',
};
/** Server codes about one field that come without `errors[]`. */
const CODE_FIELDS: Record<string, (typeof FIELDS)[number]> = {
  invalid_current_password: 'currentPassword',
  password_too_common: 'newPassword',
};

/**
 * Change password with the strength meter. The server then signs out every device, this one
 * included, so a success ends here with a sign-in under the new password.
 */
export function ChangePasswordCard({ email, id }: { email: string; id?: string }) {
  const { t, i18n } = useLingui();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [changeMyPassword] = useChangeMyPasswordMutation();
  const [failure, setFailure] = useState<string>();
  const form = useForm<PasswordValues>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: schemaResolver(passwordFormSchema(email, i18n)),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        await changeMyPassword({
          current_password: values.currentPassword,
          new_password: values.newPassword,
        }).unwrap();
      } catch (error) {
        const refused = toSubmitFailure(error, changePasswordFailed, SERVER_FIELDS, FIELDS);
        const field = refused.code ? CODE_FIELDS[refused.code] : undefined;
        if (field) refused.fieldErrors[field] ??= refused.message;
        setFailure(refused.message);
        form.setErrors(refused.fieldErrors);
        focusFirstError(refused.fieldErrors, form.getInputNode, FIELDS);
        return;
      }
      notifications.show({
        color: 'teal',
        title: t`Password changed`,
        // One sentence: the server's answer says the same ("…every device was signed out…").
        message: t`Every device was signed out, this one included: sign in again with the new password.`,
        autoClose: 10_000,
      });
      await signOut(dispatch);
      void navigate(portalPaths.login, { replace: true });
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  return (
    <SectionCard
      headingId="change-password-title"
      title={t`Change password`}
      description={t`Changing it signs out every device signed in to your account, this one included.`}
      onSubmit={submit}
      id={id}
    >
      {failure ? <FormAlert title={t`Password not changed`}>{failure}</FormAlert> : null}
      {/* Lets password managers tie the new password to this account. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      <PasswordField
        label={t`Current password`}
        autoComplete="current-password"
        required
        {...form.getInputProps('currentPassword')}
      />
      <div>
        <PasswordField
          label={t`New password`}
          autoComplete="new-password"
          required
          {...form.getInputProps('newPassword')}
        />
        <PasswordStrengthMeter password={form.values.newPassword} email={email} />
      </div>
      <PasswordField
        label={t`Confirm new password`}
        autoComplete="new-password"
        required
        {...form.getInputProps('confirmPassword')}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={form.submitting}>
          <Trans>Change password</Trans>
        </Button>
      </Group>
    </SectionCard>
  );
}
