import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { authMessages } from '../../../shared/messages';
import { portalPaths } from '../../../shared/routes';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { AuthCard } from '../components/auth/auth-card';
import { PasswordField } from '../components/forms/password-field';
import { FormAlert } from '../components/forms/form-alert';
import { focusFirstError } from '../components/forms/focus-first-error';
import { toSubmitFailure } from '../components/forms/submit-failure';
import { loginUser, selectIsAuthenticated, selectUserRole } from '../features/auth/auth-slice';
import { type SignInValues, validateSignIn } from '../features/auth/sign-in-form';

const FIELDS = ['email', 'password'] as const;

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  const [failure, setFailure] = useState<string>();
  // Fields the user has typed in. Leaving one of those checks it; leaving an untouched empty field
  // (the e-mail has focus on load) does not, so an error never appears and shifts the links below
  // just as the user clicks one. Submitting checks everything.
  const edited = useRef(new Set<string>());
  const form = useForm<SignInValues>({
    initialValues: { email: '', password: '' },
    // The shared login schema's rules, checked by hand so this page does not load zod.
    validate: validateSignIn,
    enhanceGetInputProps: ({ field, inputProps }) => {
      // Read now: the props returned here are then assigned over `inputProps`.
      const change = inputProps['onChange'] as (event: unknown) => void;
      return {
        onChange: (event: unknown) => {
          edited.current.add(field);
          change(event);
        },
        onBlur: () => {
          if (edited.current.has(field)) form.validateField(field);
        },
      };
    },
  });

  // A signed-in visitor, or one who just signed in, goes to their home screen.
  useEffect(() => {
    if (isAuthenticated)
      navigate(role === 'admin' ? portalPaths.admin : portalPaths.dashboard, { replace: true });
  }, [isAuthenticated, role, navigate]);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      try {
        await dispatch(loginUser({ email: values.email.trim(), password: values.password })).unwrap();
      } catch (error) {
        setFailure(toSubmitFailure(error, authMessages.loginFailed).message);
        form.setFieldValue('password', '');
        // Empty again, as on load: leaving it untouched is not an error.
        edited.current.delete('password');
        form.getInputNode('password')?.focus();
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  return (
    <AuthCard
      title="Sign in"
      description="Welcome back. Sign in to manage your licenses, devices and plan."
      footer={
        <Text size="sm">
          New here?{' '}
          <Anchor component={Link} to={portalPaths.register} fw={600}>
            Create an account
          </Anchor>
        </Text>
      }
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {failure && <FormAlert title="Could not sign in">{failure}</FormAlert>}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            autoFocus
            {...form.getInputProps('email')}
          />
          <Stack gap={6}>
            <PasswordField
              label="Password"
              autoComplete="current-password"
              required
              {...form.getInputProps('password')}
            />
            <Group justify="flex-end">
              <Anchor component={Link} to={portalPaths.forgotPassword} size="sm">
                Forgot your password?
              </Anchor>
            </Group>
          </Stack>
          <Button type="submit" size="md" fullWidth loading={form.submitting}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
