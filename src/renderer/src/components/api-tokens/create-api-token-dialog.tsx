import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import {
  API_TOKEN_EXPIRY_CHOICES_DAYS,
  API_TOKEN_NAME_MAX,
  type ApiTokenKind,
  type CreateApiTokenBody,
  type CreatedApiToken,
  CUSTOMER_SCOPE_TAGS,
  PLATFORM_SCOPE_TAGS,
} from '../../../../shared/api/api-tokens';
import { failureMessage, isApiFailure } from '../../lib/api-errors';
import { formatDate } from '../../lib/format-date';
import { AlertIcon } from '../brand/icons';
import { FormAlert } from '../forms/form-alert';
import { ScopePicker } from './scope-picker';

export interface CreateApiTokenDialogProps {
  opened: boolean;
  onClose: () => void;
  kind: ApiTokenKind;
  /**
   * Creates the token; rejects with the server's refusal. A session that signed in long ago is
   * asked to confirm it is you by the step-up dialog (lib/api.ts) before the call is sent again.
   */
  create: (body: CreateApiTokenBody) => Promise<CreatedApiToken>;
}

type Phase = 'form' | 'created';

/** How the new token is sent, and when it expires. */
function CreatedTokenUse({ token }: { token: CreatedApiToken }) {
  const prefix = token.api_token.prefix;
  const expiry = formatDate(token.api_token.expires_at);
  return (
    <Trans>
      Send it as <Code>Authorization: Bearer {prefix}…</Code> with your requests. It expires on {expiry}.
    </Trans>
  );
}

/**
 * Naming a token, choosing its scopes and expiry, then the token itself, shown this once with a
 * copy button.
 */
export function CreateApiTokenDialog({ opened, onClose, kind, create }: CreateApiTokenDialogProps) {
  const [phase, setPhase] = useState<Phase>('form');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [days, setDays] = useState<string>('90');
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const { t } = useLingui();

  useEffect(() => {
    if (!opened) return;
    setPhase('form');
    setName('');
    setScopes([]);
    setDays('90');
    setErrors({});
    setFailure(null);
    setCreated(null);
  }, [opened]);

  const body = (): CreateApiTokenBody => ({ name: name.trim(), scopes, expires_in_days: Number(days) });

  const createNow = async () => {
    setBusy(true);
    setFailure(null);
    try {
      setCreated(await create(body()));
      setPhase('created');
    } catch (error) {
      setFailure(
        isApiFailure(error) && error.code === 'step_up_required'
          ? t`Not created: confirm it is you when asked, then try again.`
          : failureMessage(error, t`Could not create the token`),
      );
    } finally {
      setBusy(false);
    }
  };

  const submitForm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problems = {
      ...(name.trim() === '' ? { name: t`Name the token after where it is used, e.g. "Build server"` } : {}),
      ...(scopes.length === 0 ? { scopes: t`Choose at least one area to read or write` } : {}),
    };
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    void createNow();
  };

  const title =
    phase === 'created'
      ? t`Copy your new token`
      : kind === 'platform'
        ? t`New platform token`
        : t`New personal API token`;

  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': t`Close` }}
      // The token must not vanish by a stray click outside once it is shown.
      closeOnClickOutside={phase !== 'created'}
    >
      {phase === 'form' && (
        <form onSubmit={submitForm} noValidate>
          <Stack gap="md">
            {failure && <FormAlert title={t`Could not create the token`}>{failure}</FormAlert>}
            <TextInput
              label={t`Name`}
              description={t`Where the token is used, so you know which to revoke`}
              value={name}
              maxLength={API_TOKEN_NAME_MAX}
              onChange={(event) => setName(event.currentTarget.value)}
              error={errors.name}
              data-autofocus
              required
            />
            <div>
              <Text size="sm" fw={500} id="token-expiry-label">
                <Trans>Expires after</Trans>
              </Text>
              <SegmentedControl
                aria-labelledby="token-expiry-label"
                value={days}
                onChange={setDays}
                data={API_TOKEN_EXPIRY_CHOICES_DAYS.map((choice) => ({
                  value: String(choice),
                  label: choice === 365 ? t`1 year` : t`${choice} days`,
                }))}
              />
            </div>
            <div>
              <Text size="sm" fw={500} mb={4}>
                <Trans>Scopes</Trans>
              </Text>
              <Text size="xs" c="dimmed" mb="xs">
                {kind === 'platform'
                  ? t`The token acts as you, an administrator, but only in the areas chosen here.`
                  : t`The token reaches only your own account, and only the areas chosen here.`}{' '}
                <Trans>
                  Write includes read. Sign-in, two-factor, passkeys and tokens are never reachable with a
                  token.
                </Trans>
              </Text>
              <ScopePicker
                areas={kind === 'platform' ? PLATFORM_SCOPE_TAGS : CUSTOMER_SCOPE_TAGS}
                value={scopes}
                onChange={setScopes}
                error={errors.scopes}
              />
            </div>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose} disabled={busy}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" loading={busy}>
                <Trans>Create token</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      )}

      {phase === 'created' && created && (
        <Stack gap="md">
          <Alert color="yellow" icon={<AlertIcon />} title={t`Copy it now: it is shown only this once`}>
            <Trans>
              Only a fingerprint of the token is kept, so nobody can show it to you again. Store it in a
              secret manager; if it is lost, revoke it and create another.
            </Trans>
          </Alert>
          <Code
            block
            aria-label={t`Your new API token`}
            data-testid="new-api-token"
            style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
          >
            {created.token}
          </Code>
          <Text size="sm" c="dimmed">
            <CreatedTokenUse token={created} />
          </Text>
          <Group justify="flex-end" gap="sm">
            <CopyButton value={created.token}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy} color={copied ? 'teal' : undefined}>
                  {copied ? t`Copied` : t`Copy token`}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>
              <Trans>I have stored it</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
