import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { z } from 'zod';
import { schemaResolver } from '../../../components/forms/schema-resolver';
import { registerRequestSchema } from '../../../../../shared/api/auth';
import { authMessages } from '../../../../../shared/messages';
import { passwordContainsEmail } from '../../../../../shared/password-email-rule';
import { isPortalLanguage } from '../../../../../shared/languages';
import { portalPaths } from '../../../../../shared/routes';
import { EmailField } from '../../../components/forms/email-field';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useAppDispatch } from '../../../lib/store-hooks';
import { signUp } from '../auth-calls';
import { AuthForm, useGoHomeWhenSignedIn } from '../components/auth-form';
import { AuthOutcome, SignInLink } from '../components/auth-outcome';
import { NewPasswordFields } from '../components/new-password-fields';
import { ResendVerification } from '../components/resend-verification';
import { passedEmail } from '../passed-email';
import { nextOf, rememberReturnPath, withNext } from '../return-path';

// Cross-field checks run even while another field is still wrong (`when`), so every problem shows at once.
const always = { when: () => true };
// The form's own messages are functions, so they are written in the language shown when the form checks.
const typeAgain = () => t`Type the password again`;
export const registerFormSchema = z
  .object({
    email: registerRequestSchema.shape.email,
    full_name: registerRequestSchema.shape.full_name,
    password: registerRequestSchema.shape.password,
    confirmPassword: z.string().min(1, { error: typeAgain }),
  })
  .refine((values) => !passwordContainsEmail(values.password, values.email), {
    ...always,
    error: () => t`Choose a password that does not contain your e-mail address`,
    path: ['password'],
  })
  .refine((values) => values.confirmPassword === '' || values.password === values.confirmPassword, {
    ...always,
    error: () => t`The passwords do not match`,
    path: ['confirmPassword'],
  });
type RegisterValues = z.input<typeof registerFormSchema>;
const FIELDS = ['email', 'full_name', 'password', 'confirmPassword'] as const;

function CheckYourEmail({ email, message, next }: { email: string; message: string; next: string | null }) {
  const { t } = useLingui();
  return (
    <AuthOutcome
      title={t`Check your e-mail`}
      tone="mail"
      message={message}
      footer={
        <SignInLink to={withNext(portalPaths.login, next)} email={email}>
          <Trans>Go to sign in</Trans>
        </SignInLink>
      }
    >
      <Text size="sm" c="dimmed">
        <Trans>
          We sent it to <strong>{email}</strong>. Follow the link to confirm the address, then sign in.
          Nothing arrived after a few minutes? Look in the spam folder, or send a new link.
        </Trans>
      </Text>
      <ResendVerification email={email} />
    </AuthOutcome>
  );
}

export default function RegisterPage() {
  const { t, i18n } = useLingui();
  const dispatch = useAppDispatch();
  const [failure, setFailure] = useState<string>();
  const [registered, setRegistered] = useState<{ email: string; message: string }>();
  const location = useLocation();
  const form = useForm<RegisterValues>({
    initialValues: { email: passedEmail(location.state), full_name: '', password: '', confirmPassword: '' },
    validate: schemaResolver(registerFormSchema),
    validateInputOnBlur: true,
  });

  useGoHomeWhenSignedIn();

  // Where the visitor was going (a plan's checkout).
  const next = nextOf(location.search);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      const { email, full_name, password } = registerFormSchema.parse(values);
      try {
        // Registration does not sign in: the address must be confirmed first.
        const answer: unknown = await signUp(dispatch, {
          email,
          password,
          ...(full_name ? { full_name } : {}),
          // The account starts in the language it was created in: its mail speaks it from the first.
          ...(isPortalLanguage(i18n.locale) ? { language: i18n.locale } : {}),
        });
        const message =
          typeof answer === 'string'
            ? answer
            : t`Check your inbox: we sent a link to confirm your e-mail address.`;
        // Kept in this browser, so signing in after the e-mail confirmation, whose link opens a
        // new page, still goes there.
        if (next) rememberReturnPath(next);
        setRegistered({ email, message });
      } catch (error) {
        const { message, fieldErrors } = toSubmitFailure(error, authMessages.registrationFailed, {}, FIELDS);
        setFailure(message);
        form.setErrors(fieldErrors);
        focusFirstError(fieldErrors, form.getInputNode, FIELDS);
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  if (registered) return <CheckYourEmail {...registered} next={next} />;

  return (
    <AuthForm
      title={t`Create your account`}
      description={t`One account for your licenses, devices and downloads.`}
      footer={
        <Text size="sm">
          <Trans>
            Already have an account?{' '}
            <Anchor
              component={Link}
              to={withNext(portalPaths.login, next)}
              state={form.values.email ? { email: form.values.email.trim() } : undefined}
              fw={600}
            >
              Sign in
            </Anchor>
          </Trans>
        </Text>
      }
      onSubmit={submit}
      submitting={form.submitting}
      submitLabel={t`Create account`}
      failure={failure}
      failureTitle={t`Could not create the account`}
      note={
        <Text size="xs" c="dimmed" ta="center">
          <Trans>We will e-mail you a link to confirm the address before you can sign in.</Trans>
          {next?.startsWith(portalPaths.purchase)
            ? ` ${t`Once you have signed in, you go straight on to the checkout of the plan you chose.`}`
            : ''}
        </Text>
      }
    >
      <EmailField {...form.getInputProps('email')} />
      <TextInput
        label={t`Full name`}
        description={t`Optional; shown on your invoices and licenses.`}
        autoComplete="name"
        {...form.getInputProps('full_name')}
      />
      <NewPasswordFields
        label="Password"
        password={form.getInputProps('password')}
        confirmation={form.getInputProps('confirmPassword')}
        email={form.values.email}
      />
    </AuthForm>
  );
}
