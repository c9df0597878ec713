import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useRef, useState } from 'react';
import type { SecondFactorMethod } from '../../../../../shared/api/auth';
import { authMessages } from '../../../../../shared/messages';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage, isApiFailure } from '../../../lib/api-errors';
import { useAppDispatch } from '../../../lib/store-hooks';
import { completeSecondFactor } from '../auth-calls';
import { AuthCard } from './auth-card';
import { PasskeySignInButton } from './passkey-sign-in-button';

const SIX_DIGITS = /^\d{6}$/;

/**
 * The second step of a sign-in to an account with a second factor: a code from the authenticator
 * app (the browser may fill it in), or one of the recovery codes, or the account's passkey.
 */
export function SecondFactorForm({
  challenge,
  methods,
  onRestart,
  notice,
}: {
  challenge: string;
  methods: readonly SecondFactorMethod[];
  /** What the first step said, when it was an organization's single sign-on (e.g. no seat is free). */
  notice?: string | undefined;
  /** Back to the password step (the challenge expired, or the visitor wants another account). */
  onRestart: (message?: string) => void;
}) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const hasTotp = methods.includes('totp');
  // An account whose only second factor is a passkey has no code to type.
  const takesCodes = hasTotp || methods.includes('recovery_code');
  const [useRecovery, setUseRecovery] = useState(!hasTotp && methods.includes('recovery_code'));
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = useRecovery ? value.trim() : value.replace(/\s+/g, '');
    const invalid = useRecovery
      ? typed.replace(/-/g, '').length < 10
        ? t`Enter one of your recovery codes, e.g. abcde-12345`
        : null
      : SIX_DIGITS.test(typed)
        ? null
        : t`Enter the 6-digit code your authenticator app shows`;
    setFieldError(invalid);
    setFailure(null);
    if (invalid) {
      input.current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await completeSecondFactor(
        dispatch,
        useRecovery ? { challenge, recovery_code: typed } : { challenge, code: typed },
      );
      // Signed in: the page takes the visitor home.
    } catch (error) {
      setSubmitting(false);
      if (isApiFailure(error) && error.code === 'challenge_expired') {
        onRestart(error.message);
        return;
      }
      setFailure(failureMessage(error, authMessages.loginFailed));
      setValue('');
      input.current?.focus();
    }
  };

  const switchMethod = () => {
    setUseRecovery(!useRecovery);
    setValue('');
    setFieldError(null);
    setFailure(null);
    setTimeout(() => input.current?.focus(), 0);
  };

  return (
    <AuthCard
      title={t`Two-factor sign-in`}
      description={
        !takesCodes
          ? t`Confirm it is you with your passkey.`
          : useRecovery
            ? t`Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.`
            : t`Enter the 6-digit code from the authenticator app on your phone.`
      }
      footer={
        <Anchor component="button" type="button" size="sm" onClick={() => onRestart()}>
          <Trans>Sign in with another account</Trans>
        </Anchor>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          {notice ? (
            <Text size="sm" role="status">
              <Trans>{notice} Your account has two-factor sign-in: confirm it is you to go on.</Trans>
            </Text>
          ) : null}
          {failure ? <FormAlert title={t`Could not sign in`}>{failure}</FormAlert> : null}
          {!takesCodes ? null : useRecovery ? (
            <TextInput
              ref={input}
              key="recovery"
              label={t`Recovery code`}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              error={fieldError ?? undefined}
              size="md"
            />
          ) : (
            <TextInput
              ref={input}
              key="totp"
              label={t`Authentication code`}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={7}
              placeholder="123456"
              autoFocus
              error={fieldError ?? undefined}
              size="md"
              styles={{ input: { letterSpacing: '0.2em' } }}
            />
          )}
          {takesCodes ? (
            <Button type="submit" size="md" fullWidth loading={submitting}>
              <Trans>Verify</Trans>
            </Button>
          ) : null}
          {hasTotp && methods.includes('recovery_code') ? (
            <Anchor component="button" type="button" size="sm" onClick={switchMethod} ta="center">
              {useRecovery ? t`Use a code from your authenticator app` : t`Use a recovery code`}
            </Anchor>
          ) : null}
          {methods.includes('passkey') ? (
            <>
              {takesCodes ? (
                <Text size="sm" c="dimmed" ta="center">
                  <Trans>or</Trans>
                </Text>
              ) : null}
              <PasskeySignInButton challenge={challenge} label={t`Use a passkey`} />
            </>
          ) : null}
        </Stack>
      </form>
    </AuthCard>
  );
}
