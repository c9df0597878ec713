import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { emailOnlyRequestSchema } from '../../../../../shared/api/auth';
import { EmailField } from '../../../components/forms/email-field';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useAppDispatch } from '../../../lib/store-hooks';
import { requestPasswordReset } from '../auth-calls';
import { AuthForm } from '../components/auth-form';
import { AuthOutcome, SignInLink } from '../components/auth-outcome';
import { passedEmail } from '../passed-email';

const FIELDS = ['email'] as const;

export default function ForgotPasswordPage() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [failure, setFailure] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();
  // The address typed on the sign-in page, when the visitor came from there.
  const { state } = useLocation();
  const form = useForm({
    initialValues: { email: passedEmail(state) },
    validate: schemaResolver(emailOnlyRequestSchema),
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
          t`Could not send the reset link. Try again in a moment.`,
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
    <SignInLink>
      <Trans>Back to sign in</Trans>
    </SignInLink>
  );

  if (sentTo) {
    return (
      <AuthOutcome
        title={t`Check your e-mail`}
        tone="mail"
        // The same words whatever the address: the page never tells whether an account exists.
        message={t`If an account exists for that address, we sent a link to reset the password.`}
        footer={backToSignIn}
      >
        <Text size="sm" c="dimmed">
          <Trans>
            The link works once and expires after an hour. Nothing arrived? Look in the spam folder, check the
            address <strong>{sentTo}</strong>, or ask again.
          </Trans>
        </Text>
        <Button variant="light" onClick={() => setSentTo(undefined)}>
          <Trans>Use another address</Trans>
        </Button>
      </AuthOutcome>
    );
  }

  return (
    <AuthForm
      focusFirstField
      title={t`Reset your password`}
      description={t`Enter the e-mail address of your account and we will send you a link to choose a new password.`}
      footer={backToSignIn}
      onSubmit={submit}
      submitting={form.submitting}
      submitLabel={t`Send reset link`}
      failure={failure}
      failureTitle={t`Could not send the link`}
    >
      <EmailField autoFocus {...form.getInputProps('email')} />
    </AuthForm>
  );
}
