import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { SecondFactorMethod } from '../../../../../shared/api/auth';
import { authMessages } from '../../../../../shared/messages';
import { portalPaths } from '../../../../../shared/routes';
import { EmailField } from '../../../components/forms/email-field';
import { focusFirstError } from '../../../components/forms/focus-first-error';
import { PasswordField } from '../../../components/forms/password-field';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { useAppDispatch } from '../../../lib/store-hooks';
import { signIn } from '../auth-calls';
import { AuthForm, useGoHomeWhenSignedIn } from '../components/auth-form';
import { PasskeySignInButton } from '../components/passkey-sign-in-button';
import { passedEmail } from '../passed-email';
import { nextOf, withNext } from '../return-path';
import { type SignInValues, validateSignIn } from '../sign-in-form';

const FIELDS = ['email', 'password'] as const;
/** Only the desktop app can activate its machine by file (see features/offline-activation). */
const onDesktop = () => typeof window !== 'undefined' && window.desktop !== undefined;

// The second step shows only after a password, for accounts with a second factor: it stays out of
// the page's first download, which is on a budget (tests/e2e/bundle-budget.test.ts).
const SecondFactorForm = /* @__PURE__ */ lazy(() =>
  import('../components/second-factor-form').then((module) => ({ default: module.SecondFactorForm })),
);
// Only after a sign-in refused for an unconfirmed address (it brings zod): out of the first download too.
const ResendAfterUnconfirmedSignIn = /* @__PURE__ */ lazy(() =>
  import('../components/resend-verification').then((module) => ({
    default: module.ResendAfterUnconfirmedSignIn,
  })),
);

/** The server's refusal of a sign-in whose e-mail address is not confirmed yet. */
const EMAIL_NOT_VERIFIED = 'email_not_verified';
/** The server's refusal of a password where the address's organization requires single sign-on. */
const SSO_REQUIRED = 'sso_required';

/** Single sign-on's calls, downloaded when the page needs them. */
const ssoCalls = () => import('../sso-calls');

export default function LoginPage() {
  const dispatch = useAppDispatch();
  const location = useLocation();
  // Where the visitor was going (kept through "Create an account"), see `destinationAfterSignIn`.
  const next = nextOf(location.search);
  const [failure, setFailure] = useState<string>();
  // The address a sign-in was refused for because it is not confirmed: a new link is offered.
  const [unconfirmed, setUnconfirmed] = useState<string>();
  // The second step of an account with a second factor: its challenge and the ways to answer it.
  const [secondStep, setSecondStep] = useState<{ challenge: string; methods: SecondFactorMethod[] } | null>(
    null,
  );
  // Fields the user has typed in. Leaving one of those checks it; leaving an untouched empty field
  // (the e-mail has focus on load) does not, so an error never appears and shifts the links below
  // just as the user clicks one. Submitting checks everything.
  const edited = useRef(new Set<string>());
  const form = useForm<SignInValues>({
    initialValues: { email: passedEmail(location.state), password: '' },
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
  useGoHomeWhenSignedIn();

  // An address whose organization signs it in through its provider: where to continue.
  const [ssoFor, setSsoFor] = useState<string>();
  const [ssoStarting, setSsoStarting] = useState(false);
  const continueWithSso = async (email: string) => {
    setSsoStarting(true);
    try {
      const { startSso } = await ssoCalls();
      window.location.assign(await startSso(dispatch, email));
    } catch (error) {
      setFailure(toSubmitFailure(error, authMessages.loginFailed).message);
      setSsoStarting(false);
    }
  };

  // Back from the provider: the one-time code is traded for the session (then home), or its refusal shown.
  useEffect(() => {
    if (!/[#&](sso_code|sso_error)=/.test(window.location.hash)) return;
    const hash = window.location.hash;
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    void ssoCalls().then(({ ssoReturn, completeSso }) => {
      const back = ssoReturn(hash);
      if (back.error) return setFailure(back.error);
      if (back.code)
        completeSso(dispatch, back.code).catch((error: unknown) =>
          setFailure(toSubmitFailure(error, authMessages.loginFailed).message),
        );
    });
  }, [dispatch]);

  const submit = form.onSubmit(
    async (values) => {
      setFailure(undefined);
      setUnconfirmed(undefined);
      const email = values.email.trim();
      try {
        const answer = await signIn(dispatch, { email, password: values.password });
        if ('secondFactor' in answer) {
          form.setFieldValue('password', '');
          edited.current.delete('password');
          setSecondStep(answer.secondFactor);
        }
      } catch (error) {
        const refusal = toSubmitFailure(error, authMessages.loginFailed);
        setFailure(refusal.message);
        // The e-mail stays as typed; the password is asked again.
        if (refusal.code === EMAIL_NOT_VERIFIED) setUnconfirmed(email);
        if (refusal.code === SSO_REQUIRED) setSsoFor(email);
        form.setFieldValue('password', '');
        // Empty again, as on load: leaving it untouched is not an error.
        edited.current.delete('password');
        form.getInputNode('password')?.focus();
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );

  if (secondStep)
    return (
      <Suspense fallback={null}>
        <SecondFactorForm
          challenge={secondStep.challenge}
          methods={secondStep.methods}
          onRestart={(message) => {
            setSecondStep(null);
            setFailure(message);
          }}
        />
      </Suspense>
    );

  // The address typed here goes along to the other sign-in pages.
  const typed = form.values.email.trim() ? { email: form.values.email.trim() } : undefined;

  return (
    <AuthForm
      title="Sign in"
      description="Welcome back. Sign in to manage your licenses, devices and plan."
      footer={
        <>
          <Text size="sm">
            New here?{' '}
            <Anchor component={Link} to={withNext(portalPaths.register, next)} state={typed} fw={600}>
              Create an account
            </Anchor>
          </Text>
          {onDesktop() ? (
            <Text size="sm">
              <Anchor component={Link} to={portalPaths.offlineThisMachine}>
                No network on this computer? Activate it by file
              </Anchor>
            </Text>
          ) : null}
        </>
      }
      onSubmit={submit}
      submitting={form.submitting}
      submitLabel="Sign in"
      failure={failure}
      failureTitle="Could not sign in"
      followUp={
        ssoFor ? (
          <Button variant="light" loading={ssoStarting} onClick={() => void continueWithSso(ssoFor)}>
            Continue with single sign-on
          </Button>
        ) : unconfirmed ? (
          <Suspense fallback={null}>
            <ResendAfterUnconfirmedSignIn email={unconfirmed} />
          </Suspense>
        ) : null
      }
      aside={<PasskeySignInButton />}
    >
      <EmailField autoFocus {...form.getInputProps('email')} />
      <Stack gap={6}>
        <PasswordField
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <Anchor component={Link} to={portalPaths.forgotPassword} state={typed} size="sm">
            Forgot your password?
          </Anchor>
        </Group>
      </Stack>
    </AuthForm>
  );
}
