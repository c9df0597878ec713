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
      notifications.show({ color: 'teal', title: message, message: 'Sign in again to continue.' });
      await leave();
    } catch (failure) {
      setError(failureMessage(failure, signOutEverywhereFailed));
      setLeaving(null);
    }
  };

  return (
    <SectionCard
      headingId="sessions-title"
      title="Sessions"
      description={
        <>
          Signed in on a shared or lost device? Sign out of every device at once: the desktop app and every
          browser must sign in again. Sessions also end after 30 minutes without activity. The Security page
          lists each device signed in, to sign out one at a time.
        </>
      }
    >
      <Group>
        <Button variant="default" onClick={() => void signOutHere()} loading={leaving === 'here'}>
          Sign out of this device
        </Button>
        <Button color="red" variant="light" onClick={() => setConfirming(true)} disabled={leaving !== null}>
          Sign out of all devices
        </Button>
      </Group>
      <Modal
        opened={confirming}
        onClose={() => leaving === null && setConfirming(false)}
        title="Sign out of all devices?"
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            Every session of your account ends now, this one included. Licenses stay activated on your
            machines.
          </Text>
          {error && (
            <Alert color="red" icon={<AlertIcon />} role="alert" title={error}>
              Nothing was changed. Try again in a moment.
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={leaving !== null}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => void signOutOfEveryDevice()}
              loading={leaving === 'everywhere'}
            >
              Sign out everywhere
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
