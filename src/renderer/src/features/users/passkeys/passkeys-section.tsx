import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { PASSKEY_NAME_MAX_LENGTH, type Passkey } from '../../../../../shared/api/passkeys';
import { AlertIcon } from '../../../components/brand/icons';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { FormAlert } from '../../../components/forms/form-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { onDesktop } from '../../../lib/on-desktop';
import {
  passkeyMessages,
  useFinishPasskeyRegistrationMutation,
  useListPasskeysQuery,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
  useStartPasskeyRegistrationMutation,
} from './passkey-endpoints';

/** The browser's half of a ceremony, loaded when a passkey is first used here. */
const ceremonies = () => import('../../../lib/passkey-ceremony');

function nameError(name: string, i18n: I18n): string | null {
  const trimmed = name.trim();
  const max = PASSKEY_NAME_MAX_LENGTH;
  if (trimmed.length === 0) return i18n._(msg`Name the passkey, e.g. "Work laptop" or "Phone"`);
  if (trimmed.length > max) return i18n._(msg`At most ${max} characters`);
  return null;
}

/** The passkeys of the signed-in account: each named, with when it was added and last used. */
export function PasskeysSection() {
  const { t } = useLingui();
  // The desktop shell's pages are not an origin passkeys are registered for (see docs/architecture.md).
  const desktop = onDesktop();
  const passkeys = useListPasskeysQuery(undefined, { skip: desktop });
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  return (
    <SectionCard
      headingId="passkeys-title"
      title={t`Passkeys`}
      description={t`Sign in with your fingerprint, face or device PIN instead of your password, or use a passkey as the second step of a password sign-in.`}
      actions={
        desktop ? undefined : (
          <Button onClick={() => setAdding(true)} disabled={!passkeys.isSuccess}>
            <Trans>Add a passkey</Trans>
          </Button>
        )
      }
    >
      {desktop ? (
        <Alert color="blue" variant="light" title={t`Manage passkeys in your browser`}>
          <Trans>
            Passkeys belong to the portal&apos;s web address, so this app cannot create or use them. Open the
            portal in your browser to add a passkey or sign in with one; your passkeys then work in any
            browser on your devices.
          </Trans>
        </Alert>
      ) : passkeys.isLoading ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">
            <Trans>Loading your passkeys…</Trans>
          </Text>
        </Group>
      ) : passkeys.isError ? (
        <Alert color="red" icon={<AlertIcon />} role="alert" title={passkeyMessages.listFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failureMessage(passkeys.error, t`Try again in a moment.`)}</Text>
            <Button size="xs" variant="default" onClick={() => void passkeys.refetch()}>
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </Alert>
      ) : passkeys.data && passkeys.data.length > 0 ? (
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-labelledby="passkeys-title"
        >
          {passkeys.data.map((passkey) => (
            <PasskeyRow
              key={passkey.id}
              passkey={passkey}
              onRename={() => setRenaming(passkey)}
              onRemove={() => setRemoving(passkey)}
            />
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          <Trans>No passkeys yet. Add one to sign in without typing your password.</Trans>
        </Text>
      )}
      <AddPasskeyDialog opened={adding} onClose={() => setAdding(false)} />
      <RenamePasskeyDialog passkey={renaming} onClose={() => setRenaming(null)} />
      <RemovePasskeyDialog passkey={removing} onClose={() => setRemoving(null)} />
    </SectionCard>
  );
}

function PasskeyRow({
  passkey,
  onRename,
  onRemove,
}: {
  passkey: Passkey;
  onRename: () => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useLingui();
  const when = (iso: string) => i18n.date(new Date(iso), { dateStyle: 'medium', timeStyle: 'short' });
  const name = passkey.name;
  const added = when(passkey.created_at);
  const lastUsed = passkey.last_used_at ? when(passkey.last_used_at) : null;
  return (
    <Group
      component="li"
      justify="space-between"
      wrap="wrap"
      gap="sm"
      p="sm"
      style={{
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
      aria-label={passkey.name}
    >
      <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {passkey.name}
          </Text>
          {passkey.device_type === 'multiDevice' && (
            <Badge variant="light" color="gray" size="sm">
              <Trans>Synced</Trans>
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {passkey.last_used_at ? (
            <Trans>
              Added <time dateTime={passkey.created_at}>{added}</time> · last used{' '}
              <time dateTime={passkey.last_used_at}>{lastUsed}</time>
            </Trans>
          ) : (
            <Trans>
              Added <time dateTime={passkey.created_at}>{added}</time> · never used
            </Trans>
          )}
        </Text>
      </Stack>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={onRename} aria-label={t`Rename ${name}`}>
          <Trans>Rename</Trans>
        </Button>
        <Button size="xs" color="red" variant="light" onClick={onRemove} aria-label={t`Remove ${name}`}>
          <Trans>Remove</Trans>
        </Button>
      </Group>
    </Group>
  );
}

/** Names the passkey first, then asks the browser to make it. */
function AddPasskeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [start] = useStartPasskeyRegistrationMutation();
  const [finish] = useFinishPasskeyRegistrationMutation();

  useEffect(() => {
    if (opened) {
      setName('');
      setError(null);
      setFailure(null);
    }
  }, [opened]);

  const submit = async () => {
    const problem = nameError(name, i18n);
    setError(problem);
    if (problem) return;
    setBusy(true);
    setFailure(null);
    try {
      const { createPasskey } = await ceremonies();
      const { ceremony, options } = await start().unwrap();
      const response = await createPasskey(options);
      const added = (await finish({ ceremony, name: name.trim(), response }).unwrap()).name;
      notifications.show({
        color: 'teal',
        title: t`Passkey added`,
        message: t`${added} can now sign you in.`,
      });
      onClose();
    } catch (failed) {
      setFailure(failureMessage(failed, passkeyMessages.addFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t`Close` }}
      opened={opened}
      onClose={() => !busy && onClose()}
      title={t`Add a passkey`}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          {failure && <FormAlert title={t`Could not add the passkey`}>{failure}</FormAlert>}
          <TextInput
            label={t`Name`}
            description={t`So you can tell your passkeys apart, e.g. the device or password manager that keeps it.`}
            placeholder={t`Work laptop`}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => name !== '' && setError(nameError(name, i18n))}
            error={error}
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            required
            data-autofocus
          />
          <Text size="sm" c="dimmed">
            <Trans>
              Your browser then asks you to confirm with your fingerprint, face, device PIN or security key.
            </Trans>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={busy}>
              <Trans>Continue</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RenamePasskeyDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [rename, { isLoading }] = useRenamePasskeyMutation();

  useEffect(() => {
    if (passkey) {
      setName(passkey.name);
      setError(null);
      setFailure(null);
    }
  }, [passkey]);

  const submit = async () => {
    const problem = nameError(name, i18n);
    setError(problem);
    if (problem || !passkey) return;
    setFailure(null);
    try {
      await rename({ id: passkey.id, name: name.trim() }).unwrap();
      onClose();
    } catch (failed) {
      setFailure(failureMessage(failed, passkeyMessages.renameFailed));
    }
  };

  return (
    <Modal
      closeButtonProps={{ 'aria-label': t`Close` }}
      opened={passkey !== null}
      onClose={() => !isLoading && onClose()}
      title={t`Rename passkey`}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          {failure && <FormAlert title={t`Could not rename the passkey`}>{failure}</FormAlert>}
          <TextInput
            label={t`Name`}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => setError(nameError(name, i18n))}
            error={error}
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={isLoading}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" loading={isLoading}>
              <Trans>Save</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Removal is a sensitive change: a session that signed in more than ten minutes ago is asked to
 * confirm it is still its owner (the step-up dialog, where a passkey is one of the ways), then the
 * removal goes through.
 */
function RemovePasskeyDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
  const { t } = useLingui();
  const [remove] = useRemovePasskeyMutation();
  const name = passkey?.name;

  return (
    <ConfirmDialog
      opened={passkey !== null}
      title={name === undefined ? t`Remove passkey?` : t`Remove ${name}?`}
      confirmLabel={t`Remove passkey`}
      failureTitle={t`Could not remove the passkey`}
      fallback={passkeyMessages.removeFailed}
      centered
      onClose={onClose}
      onConfirm={async () => {
        if (!passkey) return;
        await remove(passkey.id).unwrap();
        notifications.show({
          color: 'teal',
          title: t`Passkey removed`,
          message: t`${name} no longer signs you in.`,
        });
        onClose();
      }}
    >
      <Text size="sm">
        <Trans>
          It stops signing you in at once. The passkey may stay on your device or in your password manager:
          delete it there too.
        </Trans>
      </Text>
      <Text size="sm" c="dimmed">
        <Trans>If you signed in more than ten minutes ago, you are first asked to confirm it is you.</Trans>
      </Text>
    </ConfirmDialog>
  );
}
