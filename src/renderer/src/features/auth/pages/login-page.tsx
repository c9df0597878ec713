import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Group, Stack, Text } from '@mantine/core';
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
import { knownText } from '../../../lib/i18n/portal-i18n';
import { onDesktop } from '../../../lib/on-desktop';
import { useAppDispatch } from '../../../lib/store-hooks';
import { signIn } from '../auth-calls';
import { AuthForm, useGoHomeWhenSignedIn } from '../components/auth-form';
import { PasskeySignInButton } from '../components/passkey-sign-in-button';
import { passedEmail } from '../passed-email';
import { nextOf, withNext } from '../return-path';
import { type SignInValues, validateSignIn } from '../sign-in-form';

const FIELDS = ['email', 'password'] as const;

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

// Single sign-on's parts, once an address typed here signs in through its organization's provider.
const SsoPart = /* @__PURE__ */ lazy(() => import('../components/sso-parts'));

/** The server's refusal of a sign-in whose e-mail address is not confirmed yet. */
const EMAIL_NOT_VERIFIED = 'email_not_verified';
/** The server's refusal of a password where the address's organization requires single sign-on. */
const SSO_REQUIRED = 'sso_required';

/** Single sign-on's calls, downloaded when the page needs them. */
const ssoCalls = () => import('../sso-calls');

/** The domain of a typed address worth asking about (something@name.tld), else undefined. */
const domainToAsk = (email: string) => /^[^\s@]+@([^\s@]+\.[^\s@.]{2,})$/.exec(email)?.[1]?.toLowerCase();
/** How long typing pauses before the address's domain is asked about. */
const ASK_AFTER_MS = 400;

export default function LoginPage() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const location = useLocation();
  // Where the visitor was going (kept through "Create an account"), see `destinationAfterSignIn`.
  const next = nextOf(location.search);
  const [failure, setFailure] = useState<string>();
  // The address a sign-in was refused for because it is not confirmed: a new link is offered.
  const [unconfirmed, setUnconfirmed] = useState<string>();
  // The second step of an account with a second factor: its challenge and the ways to answer it.
  const [secondStep, setSecondStep] = useState<{
    challenge: string;
    methods: SecondFactorMethod[];
    notice?: string;
  } | null>(null);
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

  // The e-mail-first sign-in: by domain, whether its organization signs it in through its
  // provider (`sso`) and refuses its password (`required`); asked once typing pauses on an address.
  const [domains, setDomains] = useState<Record<string, { sso: boolean; required: boolean }>>({});
  const typedEmail = form.values.email.trim();
  const domain = domainToAsk(typedEmail);
  const sso = domain ? domains[domain] : undefined;
  // A platform administrator of such a domain keeps a password (break-glass, logged by the server).
  const [withPassword, setWithPassword] = useState(false);
  const ssoOnly = sso?.required === true && !withPassword;
  useEffect(() => {
    if (!domain || domains[domain]) return;
    const timer = setTimeout(() => {
      ssoCalls()
        .then(({ discoverSso }) => discoverSso(dispatch, typedEmail))
        .then((answer) => setDomains((known) => ({ ...known, [domain]: answer })))
        // Not known: the page stays as it is, and the server still refuses a password it must.
        .catch(() => undefined);
    }, ASK_AFTER_MS);
    return () => clearTimeout(timer);
  }, [dispatch, domain, domains, typedEmail]);
  const [ssoStarting, setSsoStarting] = useState(false);
  // Back from the provider without a seat: said first, then on to the home screen.
  const [arrival, setArrival] = useState<{ message: string; goOn: () => void }>();
  // In the desktop app, the provider's sign-in is in the system browser: what to say meanwhile.
  const [inBrowser, setInBrowser] = useState<string>();
  const continueWithSso = async (email: string) => {
    setSsoStarting(true);
    setInBrowser(undefined);
    try {
      // The desktop app's main process opens the browser and hears it come back (docs/architecture.md).
      const desktopSso = window.desktop?.sso;
      if (desktopSso) {
        const begun = await desktopSso.start(email);
        setSsoStarting(false);
        // Main's English, in the language shown.
        if (begun.started) setInBrowser(knownText(begun.message));
        else setFailure(knownText(begun.message));
        return;
      }
      const { startSso } = await ssoCalls();
      window.location.assign(await startSso(dispatch, email));
    } catch (error) {
      setFailure(toSubmitFailure(error, authMessages.loginFailed).message);
      setSsoStarting(false);
    }
  };

  // Back from the provider: the one-time code is traded for the session (then home), or its
  // refusal shown. On the desktop, main shows this page with it once the browser came back, which
  // may be a change of the fragment alone.
  // Read in the browser only: the page is also prerendered, where there is no window.
  const [returnedHash, setReturnedHash] = useState(() =>
    typeof window === 'undefined' ? '' : window.location.hash,
  );
  useEffect(() => {
    const heard = () => setReturnedHash(window.location.hash);
    window.addEventListener('hashchange', heard);
    return () => window.removeEventListener('hashchange', heard);
  }, []);
  useEffect(() => {
    if (!/[#&](sso_code|sso_error)=/.test(returnedHash)) return;
    const hash = returnedHash;
    setInBrowser(undefined);
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    void ssoCalls().then(({ ssoReturn, completeSso, signInAs }) => {
      const back = ssoReturn(hash);
      if (back.error) return setFailure(back.error);
      if (back.code)
        completeSso(dispatch, back.code).then(
          (answer) => {
            // The account's own second factor is still asked (docs/security.md).
            if ('secondFactor' in answer)
              return setSecondStep({
                ...answer.secondFactor,
                notice: answer.sso.hasSeat ? undefined : answer.sso.message,
              });
            if (answer.sso.hasSeat) return signInAs(dispatch, answer.identity);
            setArrival({ message: answer.sso.message, goOn: () => signInAs(dispatch, answer.identity) });
          },
          (error: unknown) => setFailure(toSubmitFailure(error, authMessages.loginFailed).message),
        );
    });
  }, [dispatch, returnedHash]);

  const submitPassword = form.onSubmit(
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
        const refusedDomain = domainToAsk(email);
        if (refusal.code === SSO_REQUIRED && refusedDomain) {
          setWithPassword(false);
          setDomains((known) => ({ ...known, [refusedDomain]: { sso: true, required: true } }));
        }
        form.setFieldValue('password', '');
        // Empty again, as on load: leaving it untouched is not an error.
        edited.current.delete('password');
        form.getInputNode('password')?.focus();
      }
    },
    (errors) => focusFirstError(errors, form.getInputNode, FIELDS),
  );
  // Where single sign-on is required, the form's button goes to the provider: only the address counts.
  const submit: typeof submitPassword = (event) => {
    if (!ssoOnly) return submitPassword(event);
    event?.preventDefault();
    setFailure(undefined);
    void continueWithSso(typedEmail);
  };

  if (arrival)
    return (
      <Suspense fallback={null}>
        <SsoPart part="arrival" message={arrival.message} onContinue={arrival.goOn} />
      </Suspense>
    );

  if (secondStep)
    return (
      <Suspense fallback={null}>
        <SecondFactorForm
          challenge={secondStep.challenge}
          methods={secondStep.methods}
          notice={secondStep.notice}
          onRestart={(message) => {
            setSecondStep(null);
            setFailure(message);
          }}
        />
      </Suspense>
    );

  // The address typed here goes along to the other sign-in pages.
  const typed = typedEmail ? { email: typedEmail } : undefined;

  return (
    <AuthForm
      focusFirstField
      title={t`Sign in`}
      description={t`Welcome back. Sign in to manage your licenses, devices and plan.`}
      footer={
        <>
          <Text size="sm">
            <Trans>
              New here?{' '}
              <Anchor component={Link} to={withNext(portalPaths.register, next)} state={typed} fw={600}>
                Create an account
              </Anchor>
            </Trans>
          </Text>
          {/* Only the desktop app can activate its machine by file (see features/offline-activation). */}
          {onDesktop() ? (
            <Text size="sm">
              <Anchor component={Link} to={portalPaths.offlineThisMachine}>
                <Trans>No network on this computer? Activate it by file</Trans>
              </Anchor>
            </Text>
          ) : null}
        </>
      }
      onSubmit={submit}
      submitting={ssoOnly ? ssoStarting : form.submitting}
      submitLabel={ssoOnly ? t`Continue with single sign-on` : t`Sign in`}
      failure={failure}
      failureTitle={t`Could not sign in`}
      followUp={
        inBrowser ? (
          <Suspense fallback={null}>
            <SsoPart
              part="browser"
              message={inBrowser}
              starting={ssoStarting}
              onAgain={() => void continueWithSso(typedEmail)}
            />
          </Suspense>
        ) : sso?.sso && !ssoOnly && !withPassword ? (
          <Suspense fallback={null}>
            <SsoPart
              part="offer"
              starting={ssoStarting}
              onContinue={() => void continueWithSso(typedEmail)}
            />
          </Suspense>
        ) : unconfirmed ? (
          <Suspense fallback={null}>
            <ResendAfterUnconfirmedSignIn email={unconfirmed} />
          </Suspense>
        ) : null
      }
      aside={<PasskeySignInButton />}
    >
      <EmailField autoFocus {...form.getInputProps('email')} />
      {ssoOnly ? (
        <Suspense fallback={null}>
          <SsoPart part="required" onUsePassword={() => setWithPassword(true)} />
        </Suspense>
      ) : (
        <Stack gap={6}>
          <PasswordField
            label={t`Password`}
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to={portalPaths.forgotPassword} state={typed} size="sm">
              <Trans>Forgot your password?</Trans>
            </Anchor>
          </Group>
        </Stack>
      )}
    </AuthForm>
  );
}
