import { Anchor, Button, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { opaqueTokenSchema } from '../../../shared/api/common';
import { portalPaths } from '../../../shared/routes';
import { AuthCard } from '../components/auth/auth-card';
import { ResendVerification } from '../components/auth/resend-verification';
import { AlertIcon, CheckIcon } from '../components/brand/icons';
import { toSubmitFailure } from '../components/forms/submit-failure';
import { verifyRegistration } from '../features/auth/auth-api';

type Outcome =
  { state: 'verifying' } | { state: 'verified'; message: string } | { state: 'failed'; message: string };

/** The token is single-use: a remount (or StrictMode's second effect run) reuses the first request. */
const verifications = new Map<string, Promise<string>>();
function verifyOnce(token: string): Promise<string> {
  let verification = verifications.get(token);
  if (!verification) {
    verification = verifyRegistration(token);
    verifications.set(token, verification);
  }
  return verification;
}

const MISSING_TOKEN =
  'The confirmation link is missing its code or was cut short. Open the link from the email again, or ask for a new one below.';

export default function VerifyRegistrationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const tokenLooksValid = opaqueTokenSchema.safeParse(token).success;
  const [outcome, setOutcome] = useState<Outcome>(
    tokenLooksValid ? { state: 'verifying' } : { state: 'failed', message: MISSING_TOKEN },
  );

  useEffect(() => {
    if (!tokenLooksValid) return;
    let current = true;
    verifyOnce(token).then(
      (message) => current && setOutcome({ state: 'verified', message }),
      (error: unknown) =>
        current &&
        setOutcome({
          state: 'failed',
          message: toSubmitFailure(error, 'Could not confirm the email address.').message,
        }),
    );
    return () => {
      current = false;
    };
  }, [token, tokenLooksValid]);

  if (outcome.state === 'verifying') {
    return (
      <AuthCard title="Confirming your email">
        <Stack align="center" gap="md" py="md" role="status">
          <Loader aria-hidden="true" />
          <Text c="dimmed">Checking the link…</Text>
        </Stack>
      </AuthCard>
    );
  }

  if (outcome.state === 'verified') {
    return (
      <AuthCard title="Email confirmed">
        <Stack gap="md">
          <ThemeIcon size={48} radius="xl" variant="light" color="teal">
            <CheckIcon size={26} />
          </ThemeIcon>
          <Text role="status">{outcome.message}</Text>
          <Button component={Link} to={portalPaths.login} size="md">
            Sign in
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="We could not confirm your email"
      footer={
        <Anchor component={Link} to={portalPaths.login} fw={600}>
          Back to sign in
        </Anchor>
      }
    >
      <Stack gap="md">
        <ThemeIcon size={48} radius="xl" variant="light" color="red">
          <AlertIcon size={26} />
        </ThemeIcon>
        <Text role="alert">{outcome.message}</Text>
        <Text size="sm" c="dimmed">
          Enter your address and we will send a new confirmation link.
        </Text>
        <ResendVerification />
      </Stack>
    </AuthCard>
  );
}
