import { Button, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { emailOnlyRequestSchema } from '../../../../../shared/api/auth';
import { EmailField } from '../../../components/forms/email-field';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useAppDispatch } from '../../../lib/store-hooks';
import { requestPasswordReset } from '../auth-calls';
import { AuthForm } from '../components/auth-form';
import { AuthOutcome, SignInLink } from '../components/auth-outcome';
import { passedEmail } from '../passed-email';

/** The same words whatever the address: the page never tells whether an account exists. */
const NEUTRAL_ANSWER = 'If an account exists for that address, we sent a link to reset the password.';
const FIELDS = ['email'] as const;

export default function ForgotPasswordPage() {
  const dispatch = useAppDispatch();
  const [failure, setFailure] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  // The address typed on the sign-in page, when the visitor came from there.
  const { state } = useLocation();
  const form = useForm({
    initialValues: { email: passedEmail(state) },
    validate: schemaResolver(emailOnlyRequestSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      const { email } = emailOnlyRequestSchema.parse(values);
      try {
        await requestPasswordReset(dispatch, email);
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

  const backToSignIn = <SignInLink>Back to sign in</SignInLink>;

  if (sentTo) {
    return (
      <AuthOutcome title="Check your e-mail" tone="mail" message={NEUTRAL_ANSWER} footer={backToSignIn}>
        <Text size="sm" c="dimmed">
          The link works once and expires after an hour. Nothing arrived? Look in the spam folder, check the
          address <strong>{sentTo}</strong>, or ask again.
        </Text>
        <Button variant="light" onClick={() => setSentTo(undefined)}>
          Use another address
        </Button>
      </AuthOutcome>
    );
  }

  return (
    <AuthForm
      title="Reset your password"
      description="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={backToSignIn}
      onSubmit={submit}
      submitting={form.submitting}
      submitLabel="Send reset link"
      failure={failure}
      failureTitle="Could not send the link"
    >
      <EmailField autoFocus {...form.getInputProps('email')} />
    </AuthForm>
  );
}
