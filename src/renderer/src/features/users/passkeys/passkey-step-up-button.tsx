import { Trans } from '@lingui/react/macro';
import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { failureMessage } from '../../../lib/api-errors';
import { onDesktop } from '../../../lib/on-desktop';
import {
  passkeyMessages,
  useStartPasskeyStepUpMutation,
  useStepUpWithPasskeyMutation,
} from './passkey-endpoints';

/** Step-up with one of the account's passkeys, for the step-up dialog: `onProved` once the server took it. */
export function PasskeyStepUpButton({ onProved }: { onProved: () => void }) {
  const [start] = useStartPasskeyStepUpMutation();
  const [stepUp] = useStepUpWithPasskeyMutation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The desktop shell's pages cannot use the account's passkeys (see docs/architecture.md).
  if (onDesktop()) return null;

  const prove = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { signWithPasskey } = await import('../../../lib/passkey-ceremony');
      const { ceremony, options } = await start().unwrap();
      await stepUp({ ceremony, response: await signWithPasskey(options) }).unwrap();
      onProved();
    } catch (error) {
      setFailure(failureMessage(error, passkeyMessages.stepUpFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap={4}>
      <Button variant="default" fullWidth loading={busy} onClick={() => void prove()}>
        <Trans>Use a passkey</Trans>
      </Button>
      {failure && (
        <Text size="sm" c="red" role="alert">
          {failure}
        </Text>
      )}
    </Stack>
  );
}
