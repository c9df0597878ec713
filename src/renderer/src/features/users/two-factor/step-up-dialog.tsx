import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  getDefaultZIndex,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { PasswordField } from '../../../components/forms/password-field';
import { failureMessage } from '../../../lib/api-errors';
import { setStepUpPrompt } from '../../../lib/step-up-prompt';
import { PasskeyStepUpButton } from '../passkeys/passkey-step-up-button';
import { TotpCodeInput } from './two-factor-section';
import { twoFactorMessages, useGetTwoFactorStatusQuery, useStepUpMutation } from './two-factor-endpoints';

type Method = 'password' | 'code' | 'recovery_code';

/**
 * The dialog of step-up, mounted once in the signed-in layout: when a change answers 403
 * `step_up_required`, it asks for the password or a code, calls /auth/step-up, and the change is
 * sent again (lib/api.ts). Closing it leaves the change refused.
 */
export default function StepUpHost() {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  const [method, setMethod] = useState<Method>('password');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const settle = useRef<((proved: boolean) => void) | null>(null);
  const status = useGetTwoFactorStatusQuery(undefined, { skip: !opened });
  const [stepUp, steppingUp] = useStepUpMutation();
  const hasTotp = status.data?.totp_enabled ?? false;

  useEffect(
    () =>
      setStepUpPrompt(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current = resolve;
            setMethod('password');
            setValue('');
            setError(null);
            setOpened(true);
          }),
      ),
    [],
  );

  const finish = (proved: boolean) => {
    setOpened(false);
    settle.current?.(proved);
    settle.current = null;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = method === 'password' ? value : value.trim();
    if (!typed) {
      setError(method === 'password' ? t`Enter your password` : t`Enter the code`);
      return;
    }
    setError(null);
    try {
      await stepUp(
        method === 'password'
          ? { password: typed }
          : method === 'code'
            ? { code: typed }
            : { recovery_code: typed },
      ).unwrap();
      finish(true);
    } catch (failure) {
      setError(failureMessage(failure, twoFactorMessages.stepUpFailed));
    }
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t`Close` }}
      opened={opened}
      onClose={() => finish(false)}
      title={t`Confirm it is you`}
      centered
      // Asked for in the middle of another dialog's action (a new API token, a refund): above it,
      // whichever of the two was put in the page first.
      zIndex={getDefaultZIndex('modal') + 1}
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {hasTotp ? (
              <Trans>
                This change needs a recent sign-in. Confirm with your password or a code from your
                authenticator app; it lasts ten minutes.
              </Trans>
            ) : (
              <Trans>
                This change needs a recent sign-in. Confirm with your password; it lasts ten minutes.
              </Trans>
            )}
          </Text>
          {hasTotp ? (
            <SegmentedControl
              value={method === 'recovery_code' ? 'code' : method}
              onChange={(next) => {
                setMethod(next as Method);
                setValue('');
                setError(null);
              }}
              data={[
                { value: 'password', label: t`Password` },
                { value: 'code', label: t`Authenticator code` },
              ]}
              fullWidth
            />
          ) : null}
          {method === 'password' ? (
            <PasswordField
              label={t`Password`}
              autoComplete="current-password"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={error ?? undefined}
              data-autofocus
            />
          ) : method === 'code' ? (
            <TotpCodeInput value={value} onChange={setValue} error={error} autoFocus />
          ) : (
            <TextInput
              label={t`Recovery code`}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              autoComplete="off"
              error={error ?? undefined}
              data-autofocus
            />
          )}
          {hasTotp && method !== 'password' ? (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => {
                setMethod(method === 'code' ? 'recovery_code' : 'code');
                setValue('');
                setError(null);
              }}
            >
              {method === 'code' ? t`Use a recovery code instead` : t`Use a code from the app`}
            </Anchor>
          ) : null}
          {(status.data?.passkeys ?? 0) > 0 ? <PasskeyStepUpButton onProved={() => finish(true)} /> : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => finish(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={steppingUp.isLoading}>
              <Trans>Confirm</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
