import { Anchor, Button, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { registerRequestSchema } from '../../../shared/api/auth';
import { authMessages } from '../../../shared/messages';
import { passwordContainsEmail } from '../../../shared/password-email-rule';
import { portalPaths } from '../../../shared/routes';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { AuthCard } from '../components/auth/auth-card';
import { ResendVerification } from '../components/auth/resend-verification';
import { MailIcon } from '../components/brand/icons';
import { PasswordField } from '../components/forms/password-field';
import { FormAlert } from '../components/forms/form-alert';
import { focusFirstError } from '../components/forms/focus-first-error';
import { toSubmitFailure } from '../components/forms/submit-failure';
import { PasswordStrengthMeter } from '../components/password/password-strength-meter';
import { registerUser, selectIsAuthenticated, selectUserRole } from '../features/auth/auth-slice';

// Cross-field checks run even while another field is still wrong (`when`), so every problem shows at once.
const always = { when: () => true };
export const registerFormSchema = z
  .object({
    email: registerRequestSchema.shape.email,
    full_name: registerRequestSchema.shape.full_name,
    password: registerRequestSchema.shape.password,
    confirmPassword: z.string().min(1, 'Type the password again'),
  })
  .refine((values) => !passwordContainsEmail(values.password, values.email), {
    ...always,
    message: 'Choose a password that does not contain your email address',
    path: ['password'],
  })
  .refine((values) => values.confirmPassword === '' || values.password === values.confirmPassword, {
    ...always,
    message: 'The passwords do not match',
    path: ['confirmPassword'],
  });
type RegisterValues = z.input<typeof registerFormSchema>;
const FIELDS = ['email', 'full_name', 'password', 'confirmPassword'] as const;

function CheckYourEmail({ email, message }: { email: string; message: string }) {
  return (
    <AuthCard
      title="Check your email"
      footer={
        <Anchor component={Link} to={portalPaths.login} fw={600}>
          Go to sign in
        </Anchor>
      }
    >
      <Stack gap="md">
        <ThemeIcon size={48} radius="xl" variant="light">
          <MailIcon size={26} />
        </ThemeIcon>
        <Text role="status">{message}</Text>
        <Text size="sm" c="dimmed">
          We sent it to <strong>{email}</strong>. Follow the link to confirm the address, then sign in.
          Nothing arrived after a few minutes? Look in the spam folder, or send a new link.
        </Text>
        <ResendVerification email={email} />
      </Stack>
    </AuthCard>
  );
}

export default function RegisterPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  const [failure, setFailure] = useState<string>();
  const [registered, setRegistered] = useState<{ email: string; message: string }>();
  const form = useForm<RegisterValues>({
    initialValues: { email: '', full_name: '', password: '', confirmPassword: '' },
    validate: schemaResolver(registerFormSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  useEffect(() => {
    if (isAuthenticated)
      navigate(role === 'admin' ? portalPaths.admin : portalPaths.dashboard, { replace: true });
  }, [isAuthenticated, role, navigate]);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      const { email, full_name, password } = registerFormSchema.parse(values);
      try {
        // Registration does not sign in: the address must be confirmed first.
        const answer: unknown = await dispatch(
          registerUser({ email, password, ...(full_name ? { full_name } : {}) }),
        ).unwrap();
        const message =
          typeof answer === 'string'
            ? answer
            : 'Check your inbox: we sent a link to confirm your email address.';
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

  if (registered) return <CheckYourEmail {...registered} />;

  return (
    <AuthCard
      title="Create your account"
      description="One account for your licenses, devices and downloads."
      footer={
        <Text size="sm">
          Already have an account?{' '}
          <Anchor component={Link} to={portalPaths.login} fw={600}>
            Sign in
          </Anchor>
        </Text>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && <FormAlert title="Could not create the account">{failure}</FormAlert>}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            {...form.getInputProps('email')}
          />
          <TextInput
            label="Full name"
            description="Optional; shown on your invoices and licenses."
            autoComplete="name"
            {...form.getInputProps('full_name')}
          />
          <div>
            <PasswordField
              label="Password"
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter password={form.values.password} email={form.values.email} />
          </div>
          <PasswordField
            label="Confirm password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            Create account
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            We will email you a link to confirm the address before you can sign in.
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
