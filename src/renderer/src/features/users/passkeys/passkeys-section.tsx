import { Alert, Badge, Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { PASSKEY_NAME_MAX_LENGTH, type Passkey } from '../../../../../shared/api/passkeys';
import { AlertIcon } from '../../../components/brand/icons';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { FormAlert } from '../../../components/forms/form-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import {
  passkeyMessages,
  useFinishPasskeyRegistrationMutation,
  useListPasskeysQuery,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
  useStartPasskeyRegistrationMutation,
} from './passkey-endpoints';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string) => dateTime.format(new Date(iso));

/** The browser's half of a ceremony, loaded when a passkey is first used here. */
const ceremonies = () => import('../../../lib/passkey-ceremony');

/** The desktop shell's pages are not an origin passkeys are registered for (see docs/architecture.md). */
const onDesktop = () => typeof window !== 'undefined' && window.desktop !== undefined;

function nameError(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0) return 'Name the passkey, e.g. "Work laptop" or "Phone"';
  if (trimmed.length > PASSKEY_NAME_MAX_LENGTH) return `At most ${PASSKEY_NAME_MAX_LENGTH} characters`;
  return null;
}

/** The passkeys of the signed-in account: each named, with when it was added and last used. */
export function PasskeysSection() {
  const desktop = onDesktop();
  const passkeys = useListPasskeysQuery(undefined, { skip: desktop });
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Passkey | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);

  return (
    <SectionCard
      headingId="passkeys-title"
      title="Passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of your password, or use a passkey as the second step of a password sign-in."
      actions={
        desktop ? undefined : (
          <Button onClick={() => setAdding(true)} disabled={!passkeys.isSuccess}>
            Add a passkey
          </Button>
        )
      }
    >
      {desktop ? (
        <Alert color="blue" variant="light" title="Manage passkeys in your browser">
          Passkeys belong to the portal&apos;s web address, so this app cannot create or use them. Open the
          portal in your browser to add a passkey or sign in with one; your passkeys then work in any browser
          on your devices.
        </Alert>
      ) : passkeys.isLoading ? (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Loading your passkeys…</Text>
        </Group>
      ) : passkeys.isError ? (
        <Alert color="red" icon={<AlertIcon />} role="alert" title={passkeyMessages.listFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failureMessage(passkeys.error, 'Try again in a moment.')}</Text>
            <Button size="xs" variant="default" onClick={() => void passkeys.refetch()}>
              Try again
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
          No passkeys yet. Add one to sign in without typing your password.
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
              Synced
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Added <time dateTime={passkey.created_at}>{when(passkey.created_at)}</time>
          {' · '}
          {passkey.last_used_at ? (
            <>
              last used <time dateTime={passkey.last_used_at}>{when(passkey.last_used_at)}</time>
            </>
          ) : (
            'never used'
          )}
        </Text>
      </Stack>
      <Group gap="xs">
        <Button size="xs" variant="default" onClick={onRename} aria-label={`Rename ${passkey.name}`}>
          Rename
        </Button>
        <Button
          size="xs"
          color="red"
          variant="light"
          onClick={onRemove}
          aria-label={`Remove ${passkey.name}`}
        >
          Remove
        </Button>
      </Group>
    </Group>
  );
}

/** Names the passkey first, then asks the browser to make it. */
function AddPasskeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
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
    const problem = nameError(name);
    setError(problem);
    if (problem) return;
    setBusy(true);
    setFailure(null);
    try {
      const { createPasskey } = await ceremonies();
      const { ceremony, options } = await start().unwrap();
      const response = await createPasskey(options);
      const added = await finish({ ceremony, name: name.trim(), response }).unwrap();
      notifications.show({
        color: 'teal',
        title: 'Passkey added',
        message: `${added.name} can now sign you in.`,
      });
      onClose();
    } catch (failed) {
      setFailure(failureMessage(failed, passkeyMessages.addFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={() => !busy && onClose()} title="Add a passkey" centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          {failure && <FormAlert title="Could not add the passkey">{failure}</FormAlert>}
          <TextInput
            label="Name"
            description="So you can tell your passkeys apart, e.g. the device or password manager that keeps it."
            placeholder="Work laptop"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => name !== '' && setError(nameError(name))}
            error={error}
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            required
            data-autofocus
          />
          <Text size="sm" c="dimmed">
            Your browser then asks you to confirm with your fingerprint, face, device PIN or security key.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Continue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RenamePasskeyDialog({ passkey, onClose }: { passkey: Passkey | null; onClose: () => void }) {
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
    const problem = nameError(name);
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
    <Modal opened={passkey !== null} onClose={() => !isLoading && onClose()} title="Rename passkey" centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          {failure && <FormAlert title="Could not rename the passkey">{failure}</FormAlert>}
          <TextInput
            label="Name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            onBlur={() => setError(nameError(name))}
            error={error}
            maxLength={PASSKEY_NAME_MAX_LENGTH + 10}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={isLoading}>
              Cancel
            </Button>
            <Button type="submit" loading={isLoading}>
              Save
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
  const [remove] = useRemovePasskeyMutation();

  return (
    <ConfirmDialog
      opened={passkey !== null}
      title={`Remove ${passkey?.name ?? 'passkey'}?`}
      confirmLabel="Remove passkey"
      failureTitle="Could not remove the passkey"
      fallback={passkeyMessages.removeFailed}
      centered
      onClose={onClose}
      onConfirm={async () => {
        if (!passkey) return;
        await remove(passkey.id).unwrap();
        notifications.show({
          color: 'teal',
          title: 'Passkey removed',
          message: `${passkey.name} no longer signs you in.`,
        });
        onClose();
      }}
    >
      <Text size="sm">
        It stops signing you in at once. The passkey may stay on your device or in your password manager:
        delete it there too.
      </Text>
      <Text size="sm" c="dimmed">
        If you signed in more than ten minutes ago, you are first asked to confirm it is you.
      </Text>
    </ConfirmDialog>
  );
}
