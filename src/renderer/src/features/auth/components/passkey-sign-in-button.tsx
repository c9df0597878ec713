import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage } from '../../../lib/api-errors';
import { onDesktop } from '../../../lib/on-desktop';
import { useAppDispatch } from '../../../lib/store-hooks';
import { useHydrated } from '../../../lib/use-hydrated';
import { loadPasskeySignIn } from '../index';

const browserHasPasskeys = () => typeof window !== 'undefined' && 'PublicKeyCredential' in window;

/**
 * Whether this browser has WebAuthn. A page rendered ahead of time has no browser to ask: it is
 * rendered with the button, as nearly every browser has it, and one without drops it once hydrated.
 */
function useBrowserHasPasskeys(): boolean {
  const hydrated = useHydrated();
  return !hydrated || browserHasPasskeys();
}

interface PasskeySignInButtonProps {
  /** The second-factor challenge of a password sign-in: the passkey completes that sign-in. */
  challenge?: string;
  label?: string;
}

/**
 * Signs in with a passkey (or, given `challenge`, completes a password sign-in with one). On the
 * desktop it says where passkeys work instead; in a browser without WebAuthn it shows nothing.
 */
export function PasskeySignInButton({ challenge, label }: PasskeySignInButtonProps) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const hasPasskeys = useBrowserHasPasskeys();

  // The desktop shell's pages are not an origin passkeys are registered for (see docs/architecture.md).
  if (onDesktop())
    return (
      <Text size="sm" c="dimmed" ta="center">
        <Trans>Passkeys work in your browser: open the portal there to sign in with one.</Trans>
      </Text>
    );
  if (!hasPasskeys) return null;

  const signIn = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const { signInWithPasskey } = await loadPasskeySignIn();
      await signInWithPasskey(dispatch, challenge);
      // Signed in: the page's own effect takes the visitor home.
    } catch (error) {
      setFailure(failureMessage(error, t`Could not sign in with a passkey`));
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs">
      {failure && <FormAlert title={t`Passkey sign-in failed`}>{failure}</FormAlert>}
      <Button variant="default" size="md" fullWidth loading={busy} onClick={() => void signIn()}>
        {label ?? t`Sign in with a passkey`}
      </Button>
    </Stack>
  );
}
