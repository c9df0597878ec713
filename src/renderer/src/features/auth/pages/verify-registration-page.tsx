import { Trans, useLingui } from '@lingui/react/macro';
import { Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { opaqueTokenSchema } from '../../../../../shared/api/common';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { type AppDispatch, useAppDispatch } from '../../../lib/store-hooks';
import { verifyRegistration } from '../auth-calls';
import { AuthCard } from '../components/auth-card';
import { AuthOutcome, SignInButton, SignInLink } from '../components/auth-outcome';
import { ResendVerification } from '../components/resend-verification';

/** Where the confirmation stands; a failure without a `message` is a link missing its code. */
type Outcome =
  { state: 'verifying' } | { state: 'verified'; message: string } | { state: 'failed'; message?: string };

/** The token is single-use: a remount (or StrictMode's second effect run) reuses the first request. */
const verifications = new Map<string, Promise<string>>();
function verifyOnce(dispatch: AppDispatch, token: string): Promise<string> {
  let verification = verifications.get(token);
  if (!verification) {
    verification = verifyRegistration(dispatch, token);
    verifications.set(token, verification);
  }
  return verification;
}

export default function VerifyRegistrationPage() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const tokenLooksValid = opaqueTokenSchema.safeParse(token).success;
  const [outcome, setOutcome] = useState<Outcome>(
    tokenLooksValid ? { state: 'verifying' } : { state: 'failed' },
  );

  useEffect(() => {
    if (!tokenLooksValid) return;
    let current = true;
    verifyOnce(dispatch, token).then(
      (message) => current && setOutcome({ state: 'verified', message }),
      (error: unknown) =>
        current &&
        setOutcome({
          state: 'failed',
          message: toSubmitFailure(error, t`Could not confirm the e-mail address.`).message,
        }),
    );
    return () => {
      current = false;
    };
  }, [dispatch, token, tokenLooksValid, t]);

  if (outcome.state === 'verifying') {
    return (
      <AuthCard title={t`Confirming your e-mail`}>
        <Stack align="center" gap="md" py="md" role="status">
          <Loader aria-hidden="true" />
          <Text c="dimmed">
            <Trans>Checking the link…</Trans>
          </Text>
        </Stack>
      </AuthCard>
    );
  }

  if (outcome.state === 'verified') {
    return (
      <AuthOutcome title={t`E-mail confirmed`} tone="done" message={outcome.message}>
        <SignInButton />
      </AuthOutcome>
    );
  }

  return (
    <AuthOutcome
      title={t`We could not confirm your e-mail`}
      tone="problem"
      message={
        outcome.message ??
        t`The confirmation link is missing its code or was cut short. Open the link from the e-mail again, or ask for a new one below.`
      }
      footer={
        <SignInLink>
          <Trans>Back to sign in</Trans>
        </SignInLink>
      }
    >
      <Text size="sm" c="dimmed">
        <Trans>Enter your e-mail address below and we will send you a new confirmation link.</Trans>
      </Text>
      <ResendVerification />
    </AuthOutcome>
  );
}
