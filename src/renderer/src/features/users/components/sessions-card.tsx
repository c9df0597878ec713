import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon } from '../../../components/brand/icons';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { useAppDispatch } from '../../../lib/store-hooks';
import { signOut } from '../../auth';
import { signOutEverywhereFailed, useSignOutEverywhereMutation } from '../users-endpoints';

/** Signing out here (POST /auth/logout) or on every device at once (POST /auth/logout-all). */
export function SessionsCard() {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [signOutEverywhere] = useSignOutEverywhereMutation();
  const [leaving, setLeaving] = useState<'here' | 'everywhere' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const leave = async () => {
    // Logout ends the session here whether or not the server answered.
    await signOut(dispatch);
    void navigate(portalPaths.login, { replace: true });
  };

  const signOutHere = async () => {
    setLeaving('here');
    await leave();
  };

  const signOutOfEveryDevice = async () => {
    setLeaving('everywhere');
    setError(null);
    try {
      const message = await signOutEverywhere().unwrap();
      setConfirming(false);
      notifications.show({ color: 'teal', title: message, message: t`Sign in again to continue.` });
      await leave();
    } catch (failure) {
      setError(failureMessage(failure, signOutEverywhereFailed));
      setLeaving(null);
    }
  };

  return (
    <SectionCard
      headingId="sessions-title"
      title={t`Sessions`}
      description={
        <Trans>
          Signed in on a shared or lost device? Sign out of every device at once: the desktop app and every
          browser must sign in again. Sessions also end after 30 minutes without activity. The Security page
          lists each device signed in, to sign out one at a time.
        </Trans>
      }
    >
      <Group>
        <Button variant="default" onClick={() => void signOutHere()} loading={leaving === 'here'}>
          <Trans>Sign out of this device</Trans>
        </Button>
        <Button color="red" variant="light" onClick={() => setConfirming(true)} disabled={leaving !== null}>
          <Trans>Sign out of all devices</Trans>
        </Button>
      </Group>
      <Modal
        closeButtonProps={{ 'aria-label': t`Close` }}
        opened={confirming}
        onClose={() => leaving === null && setConfirming(false)}
        title={t`Sign out of all devices?`}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            <Trans>
              Every session of your account ends now, this one included. Licenses stay activated on your
              machines.
            </Trans>
          </Text>
          {error && (
            <Alert color="red" icon={<AlertIcon />} role="alert" title={error}>
              <Trans>Nothing was changed. Try again in a moment.</Trans>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={leaving !== null}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              color="red"
              onClick={() => void signOutOfEveryDevice()}
              loading={leaving === 'everywhere'}
            >
              <Trans>Sign out everywhere</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
