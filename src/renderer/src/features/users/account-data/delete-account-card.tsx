import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { AlertIcon } from '../../../components/brand/icons';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import {
  accountDataMessages,
  useCancelAccountDeletionMutation,
  useRequestAccountDeletionMutation,
} from './account-data-endpoints';

/** What deleting the account does, as the dialog lists it. */
export const DELETION_CONSEQUENCES = [
  'Your subscriptions are cancelled and charge no more.',
  'Your licenses end, and the desktop app stops working on your machines at their next check.',
  'Your details, sign-in methods, sessions and API tokens are erased; you cannot sign in again.',
  'Invoices and credit notes are kept with the billing details they were issued with, as the law requires.',
] as const;

/** Cancels a pending deletion, with a toast; the profile (and so the banner) follows. */
export function useCancelDeletion() {
  const [cancel, { isLoading }] = useCancelAccountDeletionMutation();
  const run = async () => {
    try {
      await cancel().unwrap();
      notifications.show({ color: 'teal', title: 'Deletion cancelled', message: 'Your account stays.' });
    } catch (failure) {
      notifications.show({
        color: 'red',
        title: failureMessage(failure, accountDataMessages.cancelFailed),
        message: 'Your account is still to be deleted. Try again in a moment.',
      });
    }
  };
  return { cancelDeletion: run, cancelling: isLoading };
}

/**
 * Deleting the account: the dialog lists what it does and asks to confirm; the account is erased
 * after the grace period, until when it can be cancelled here (and from the banner of every page).
 */
export function DeleteAccountCard({ deletionDueAt }: { deletionDueAt: string | undefined }) {
  const [confirming, setConfirming] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requestDeletion, { isLoading }] = useRequestAccountDeletionMutation();
  const { cancelDeletion, cancelling } = useCancelDeletion();

  const close = () => {
    if (isLoading) return;
    setConfirming(false);
    setUnderstood(false);
    setError(null);
  };

  const confirm = async () => {
    setError(null);
    try {
      const answer = await requestDeletion().unwrap();
      close();
      notifications.show({
        color: 'orange',
        title: 'Your account is to be deleted',
        message: `On ${formatDate(answer.deletion_due_at ?? new Date().toISOString())}, unless you cancel it before.`,
      });
    } catch (failure) {
      setError(failureMessage(failure, accountDataMessages.deleteFailed));
    }
  };

  return (
    <SectionCard
      headingId="delete-account-title"
      title="Delete account"
      description="Delete your account and the personal data it holds. You can change your mind until the day it is erased."
    >
      {deletionDueAt ? (
        <Alert color="red" icon={<AlertIcon />} title="Your account is to be deleted" role="status">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              It will be erased on {formatDate(deletionDueAt)}. Until then you can keep it.
            </Text>
            <Button size="xs" variant="default" onClick={() => void cancelDeletion()} loading={cancelling}>
              Cancel deletion
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Group>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            Delete my account
          </Button>
        </Group>
      )}
      <Modal opened={confirming} onClose={close} title="Delete your account?" centered>
        <Stack gap="md">
          <Text size="sm">After a grace period your account is erased:</Text>
          <List size="sm" spacing={4}>
            {DELETION_CONSEQUENCES.map((consequence) => (
              <List.Item key={consequence}>{consequence}</List.Item>
            ))}
          </List>
          <Text size="sm">
            Until then, signing in offers to cancel the deletion. If you own an organization, transfer it to
            another member first.
          </Text>
          <Checkbox
            label="I understand what deleting my account does"
            checked={understood}
            onChange={(event) => setUnderstood(event.currentTarget.checked)}
          />
          {error ? (
            <Alert color="red" icon={<AlertIcon />} role="alert" title={error}>
              Your account was not deleted.
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={isLoading}>
              Keep my account
            </Button>
            <Button color="red.9" onClick={() => void confirm()} disabled={!understood} loading={isLoading}>
              Delete my account
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
