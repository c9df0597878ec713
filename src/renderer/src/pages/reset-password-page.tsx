import { Anchor, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { z } from 'zod';
import { opaqueTokenSchema } from '../../../shared/api/common';
import { resetPasswordRequestSchema } from '../../../shared/api/auth';
import { portalPaths } from '../../../shared/routes';
import { AuthCard } from '../components/auth/auth-card';
import { AlertIcon, CheckIcon } from '../components/brand/icons';
import { PasswordField } from '../components/forms/password-field';
import { FormAlert } from '../components/forms/form-alert';
import { focusFirstError } from '../components/forms/focus-first-error';
import { toSubmitFailure } from '../components/forms/submit-failure';
import { PasswordStrengthMeter } from '../components/password/password-strength-meter';
import { resetPassword } from '../features/auth/auth-api';

const always = { when: () => true };
const resetFormSchema = z
  .object({
    password: resetPasswordRequestSchema.shape.new_password,
    confirmPassword: z.string().min(1, 'Type the password again'),
  })
  .refine((values) => values.confirmPassword === '' || values.password === values.confirmPassword, {
    ...always,
    message: 'The passwords do not match',
    path: ['confirmPassword'],
  });
const FIELDS = ['password', 'confirmPassword'] as const;
/** Server codes that mean the link itself is no good: asking for a new one is the only way on. */
const DEAD_LINK_CODES = new Set(['invalid_reset_token']);

function LinkProblem({ message }: { message: string }) {
  return (
    <AuthCard title="This reset link does not work">
      <Stack gap="md">
        <ThemeIcon size={48} radius="xl" variant="light" color="red">
          <AlertIcon size={26} />
        </ThemeIcon>
        <Text role="alert">{message}</Text>
        <Button component={Link} to={portalPaths.forgotPassword}>
          Ask for a new link
        </Button>
        <Anchor component={Link} to={portalPaths.login} size="sm" ta="center">
          Back to sign in
        </Anchor>
      </Stack>
    </AuthCard>
  );
}

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [failure, setFailure] = useState<string>();
  const [deadLink, setDeadLink] = useState<string>();
  const [done, setDone] = useState<string>();
  const form = useForm({
    initialValues: { password: '', confirmPassword: '' },
    validate: schemaResolver(resetFormSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        setDone(await resetPassword({ token, newPassword: values.password }));
      } catch (error) {
        const { message, fieldErrors, code } = toSubmitFailure(
          error,
          'Could not reset the password. Try again in a moment.',
          { new_password: 'password' },
          FIELDS,
        );
        if (code && DEAD_LINK_CODES.has(code)) {
          setDeadLink(message);
          return;
        }
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  if (!opaqueTokenSchema.safeParse(token).success) {
    return (
      <LinkProblem message="The link is missing its code or was cut short. Open the link from the email again, or ask for a new one." />
    );
  }
  if (deadLink) return <LinkProblem message={deadLink} />;
  if (done) {
    return (
      <AuthCard title="Password changed">
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" variant="light" color="teal">
            <CheckIcon size={26} />
          </ThemeIcon>
          <Text role="status">{done}</Text>
          <Button component={Link} to={portalPaths.login} size="md">
            Sign in
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      description="After the change, every device signed in to your account is signed out."
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && <FormAlert title="Could not reset the password">{failure}</FormAlert>}
          <div>
            <PasswordField
              label="New password"
              autoComplete="new-password"
              required
              autoFocus
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter password={form.values.password} />
          </div>
          <PasswordField
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            Set new password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
