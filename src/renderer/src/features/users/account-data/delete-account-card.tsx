import { Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
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
  msg`Your subscriptions are cancelled and charge no more.`,
  msg`Your licenses end, and the desktop app stops working on your machines at their next check.`,
  msg`Your details, sign-in methods, sessions and API tokens are erased; you cannot sign in again.`,
  msg`Invoices and credit notes are kept with the billing details they were issued with, as the law requires.`,
] as const;

/** Cancels a pending deletion, with a toast; the profile (and so the banner) follows. */
export function useCancelDeletion() {
  const { t } = useLingui();
  const [cancel, { isLoading }] = useCancelAccountDeletionMutation();
  const run = async () => {
    try {
      await cancel().unwrap();
      notifications.show({ color: 'teal', title: t`Deletion cancelled`, message: t`Your account stays.` });
    } catch (failure) {
      notifications.show({
        color: 'red',
        title: failureMessage(failure, accountDataMessages.cancelFailed),
        message: t`Your account is still to be deleted. Try again in a moment.`,
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
  const { t, i18n } = useLingui();
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
      const day = formatDate(answer.deletion_due_at ?? new Date().toISOString());
      notifications.show({
        color: 'orange',
        title: t`Your account is to be deleted`,
        message: t`On ${day}, unless you cancel it before.`,
      });
    } catch (failure) {
      setError(failureMessage(failure, accountDataMessages.deleteFailed));
    }
  };

  const dueDay = deletionDueAt ? formatDate(deletionDueAt) : '';
  return (
    <SectionCard
      headingId="delete-account-title"
      title={t`Delete account`}
      description={t`Delete your account and the personal data it holds. You can change your mind until the day it is erased.`}
    >
      {deletionDueAt ? (
        <Alert color="red" icon={<AlertIcon />} title={t`Your account is to be deleted`} role="status">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              <Trans>It will be erased on {dueDay}. Until then you can keep it.</Trans>
            </Text>
            <Button size="xs" variant="default" onClick={() => void cancelDeletion()} loading={cancelling}>
              <Trans>Cancel deletion</Trans>
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Group>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            <Trans>Delete my account</Trans>
          </Button>
        </Group>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': t`Close` }}
        opened={confirming}
        onClose={close}
        title={t`Delete your account?`}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            <Trans>After a grace period your account is erased:</Trans>
          </Text>
          <List size="sm" spacing={4}>
            {DELETION_CONSEQUENCES.map((consequence) => (
              <List.Item key={consequence.id}>{i18n._(consequence)}</List.Item>
            ))}
          </List>
          <Text size="sm">
            <Trans>
              Until then, signing in offers to cancel the deletion. If you own an organization, transfer it to
              another member first.
            </Trans>
          </Text>
          <Checkbox
            label={t`I understand what deleting my account does`}
            checked={understood}
            onChange={(event) => setUnderstood(event.currentTarget.checked)}
          />
          {error ? (
            <Alert color="red" icon={<AlertIcon />} role="alert" title={error}>
              <Trans>Your account was not deleted.</Trans>
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={isLoading}>
              <Trans>Keep my account</Trans>
            </Button>
            <Button color="red.9" onClick={() => void confirm()} disabled={!understood} loading={isLoading}>
              <Trans>Delete my account</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}
