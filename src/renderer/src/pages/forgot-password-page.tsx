import { Anchor, Button, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { emailOnlyRequestSchema } from '../../../shared/api/auth';
import { portalPaths } from '../../../shared/routes';
import { AuthCard } from '../components/auth/auth-card';
import { MailIcon } from '../components/brand/icons';
import { FormAlert } from '../components/forms/form-alert';
import { focusFirstError } from '../components/forms/focus-first-error';
import { toSubmitFailure } from '../components/forms/submit-failure';
import { requestPasswordReset } from '../features/auth/auth-api';

/** The same words whatever the address: the page never tells whether an account exists. */
const NEUTRAL_ANSWER = 'If an account exists for that address, we sent a link to reset the password.';
const FIELDS = ['email'] as const;

export default function ForgotPasswordPage() {
  const [failure, setFailure] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm({
    initialValues: { email: '' },
    validate: schemaResolver(emailOnlyRequestSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      const { email } = emailOnlyRequestSchema.parse(values);
      try {
        await requestPasswordReset(email);
        setSentTo(email);
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(
          error,
          'Could not send the reset link. Try again in a moment.',
          {},
          FIELDS,
        );
        setFailure(message);
        form.setErrors(fieldErrors);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  const backToSignIn = (
    <Anchor component={Link} to={portalPaths.login} fw={600}>
      Back to sign in
    </Anchor>
  );

  if (sentTo) {
    return (
      <AuthCard title="Check your email" footer={backToSignIn}>
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" variant="light">
            <MailIcon size={26} />
          </ThemeIcon>
          <Text role="status">{NEUTRAL_ANSWER}</Text>
          <Text size="sm" c="dimmed">
            The link works once and expires after an hour. Nothing arrived? Look in the spam folder, check the
            address <strong>{sentTo}</strong>, or ask again.
          </Text>
          <Button variant="light" onClick={() => setSentTo(undefined)}>
            Use another address
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      description="Enter the email address of your account and we will send you a link to choose a new password."
      footer={backToSignIn}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && <FormAlert title="Could not send the link">{failure}</FormAlert>}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            autoFocus
            {...form.getInputProps('email')}
          />
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            Send reset link
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
