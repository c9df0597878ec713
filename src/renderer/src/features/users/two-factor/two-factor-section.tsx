import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Image,
  Loader,
  Modal,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import type { TotpEnrolment } from '../../../../../shared/api/two-factor';
import { FormAlert } from '../../../components/forms/form-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage, isApiFailure } from '../../../lib/api-errors';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import {
  twoFactorMessages,
  useConfirmTotpMutation,
  useDisableTotpMutation,
  useGetTwoFactorStatusQuery,
  useRegenerateRecoveryCodesMutation,
  useStartTotpEnrolmentMutation,
} from './two-factor-endpoints';

const SIX_DIGITS = /^\d{6}$/;
const digitsOf = (value: string) => value.replace(/\s+/g, '');

/** The code field of an authenticator app: digits, and the browser may fill it from an SMS or app. */
export function TotpCodeInput({
  value,
  onChange,
  error,
  label,
  autoFocus = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  label?: string;
  autoFocus?: boolean;
}) {
  const { t } = useLingui();
  return (
    <TextInput
      label={label ?? t`Code from your authenticator app`}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={7}
      placeholder="123456"
      error={error ?? undefined}
      autoFocus={autoFocus}
      data-autofocus={autoFocus || undefined}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', letterSpacing: '0.2em' } }}
      w={{ base: '100%', xs: 300 }}
    />
  );
}

/** Enrolment: scan the QR code (or type the secret), then confirm with the first code. */
function EnrolPanel({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment;
  onConfirmed: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirm, confirming] = useConfirmTotpMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const digits = digitsOf(code);
    if (!SIX_DIGITS.test(digits)) {
      setError(t`Enter the 6-digit code your app shows`);
      return;
    }
    setError(null);
    try {
      onConfirmed(await confirm(digits).unwrap());
    } catch (failure) {
      setError(failureMessage(failure, twoFactorMessages.confirmFailed));
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            1. Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator,
            1Password, Bitwarden, …).
          </Trans>
        </Text>
        <Image
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
          alt={t`QR code to add this account to your authenticator app`}
          w={200}
          h={200}
          bg="white"
          radius="sm"
        />
        <Text size="sm">
          <Trans>Or type this key into the app:</Trans>
        </Text>
        <Group gap="xs" align="center">
          <Text ff="monospace" size="sm" data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
            {enrolment.secret}
          </Text>
          <CopyButton value={enrolment.secret}>
            {({ copied, copy }) => (
              <Button size="compact-sm" variant="default" onClick={copy}>
                {copied ? t`Copied` : t`Copy`}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">
          <Trans>2. Enter the 6-digit code the app shows for this account.</Trans>
        </Text>
        <TotpCodeInput value={code} onChange={setCode} error={error} autoFocus />
        <Group gap="sm">
          <Button type="submit" loading={confirming.isLoading}>
            <Trans>Turn on</Trans>
          </Button>
          <Button variant="subtle" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Removing the app takes a code from it, or a recovery code when the phone is gone. */
function DisableDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [disable, disabling] = useDisableTotpMutation();

  const close = () => {
    setValue('');
    setError(null);
    setUseRecovery(false);
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = useRecovery ? value.trim() : digitsOf(value);
    if (useRecovery ? typed.length < 10 : !SIX_DIGITS.test(typed)) {
      setError(useRecovery ? t`Enter one of your recovery codes` : t`Enter the 6-digit code your app shows`);
      return;
    }
    try {
      const message = await disable(useRecovery ? { recovery_code: typed } : { code: typed }).unwrap();
      notifications.show({ color: 'green', message });
      close();
    } catch (failure) {
      // A step-up the user cancelled says nothing more.
      if (isApiFailure(failure) && failure.code === 'step_up_required') return;
      setError(failureMessage(failure, twoFactorMessages.disableFailed));
    }
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t`Close` }}
      opened={opened}
      onClose={close}
      title={t`Remove the authenticator app`}
      centered
    >
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            <Trans>Signing in will need only your password (or a passkey, if you have one).</Trans>
          </Text>
          {useRecovery ? (
            <TextInput
              label={t`Recovery code`}
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              autoComplete="off"
              error={error ?? undefined}
              data-autofocus
            />
          ) : (
            <TotpCodeInput value={value} onChange={setValue} error={error} autoFocus />
          )}
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setValue('');
              setError(null);
            }}
          >
            {useRecovery ? t`Use a code from the app` : t`Use a recovery code instead`}
          </Anchor>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" color="red" loading={disabling.isLoading}>
              <Trans>Remove</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Two-factor sign-in with an authenticator app, and its recovery codes. */
export function TwoFactorSection() {
  const { t } = useLingui();
  const status = useGetTwoFactorStatusQuery();
  const [start, starting] = useStartTotpEnrolmentMutation();
  const [regenerate, regenerating] = useRegenerateRecoveryCodesMutation();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const begin = async () => {
    setError(null);
    try {
      setEnrolment(await start().unwrap());
    } catch (failure) {
      setError(failureMessage(failure, twoFactorMessages.startFailed));
    }
  };
  const renew = async () => {
    setError(null);
    try {
      setCodes(await regenerate().unwrap());
    } catch (failure) {
      if (isApiFailure(failure) && failure.code === 'step_up_required') return;
      setError(failureMessage(failure, twoFactorMessages.regenerateFailed));
    }
  };

  const current = status.data;
  const enabled = current?.totp_enabled ?? false;
  const left = current?.recovery_codes_left;
  return (
    <SectionCard
      headingId="two-factor-title"
      id="two-factor"
      title={
        <Group gap="xs" component="span">
          <Trans>Two-factor sign-in</Trans>
          {current ? (
            <Badge color={enabled ? 'green' : 'gray'} variant="light">
              {enabled ? t`On` : t`Off`}
            </Badge>
          ) : null}
        </Group>
      }
      description={t`After your password, signing in asks for a code from an authenticator app on your phone.`}
    >
      {status.isLoading ? <Loader size="sm" aria-label={t`Loading two-factor settings`} /> : null}
      {status.isError ? (
        <FormAlert title={twoFactorMessages.statusFailed}>
          {failureMessage(status.error, twoFactorMessages.statusFailed)}
        </FormAlert>
      ) : null}
      {current?.required && !enabled && current.passkeys === 0 ? (
        <Alert color="orange" variant="light" title={t`Required for your account`}>
          <Trans>
            Administrators must use two-factor sign-in. Set up an authenticator app (or add a passkey) to
            continue.
          </Trans>
        </Alert>
      ) : null}
      {error ? <FormAlert title={t`Something went wrong`}>{error}</FormAlert> : null}

      {codes ? (
        <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />
      ) : enrolment ? (
        <EnrolPanel
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onConfirmed={(recoveryCodes) => {
            setEnrolment(null);
            setCodes(recoveryCodes);
            notifications.show({ color: 'green', message: t`Two-factor sign-in is on.` });
          }}
        />
      ) : current ? (
        <Stack gap="sm">
          {enabled ? (
            <>
              <Text size="sm">
                <Trans>
                  An authenticator app is set up. Recovery codes left:{' '}
                  <Text span fw={600} data-testid="recovery-codes-left">
                    {left}
                  </Text>
                </Trans>
              </Text>
              <Group gap="sm">
                <Button variant="default" onClick={() => void renew()} loading={regenerating.isLoading}>
                  <Trans>New recovery codes</Trans>
                </Button>
                <Button variant="light" color="red" onClick={() => setRemoving(true)}>
                  <Trans>Remove the app</Trans>
                </Button>
              </Group>
            </>
          ) : (
            <Group>
              <Button onClick={() => void begin()} loading={starting.isLoading}>
                <Trans>Set up an authenticator app</Trans>
              </Button>
            </Group>
          )}
        </Stack>
      ) : null}
      <DisableDialog opened={removing} onClose={() => setRemoving(false)} />
    </SectionCard>
  );
}
