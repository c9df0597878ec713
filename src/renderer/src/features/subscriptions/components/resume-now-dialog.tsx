import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Subscription } from '../../../../../shared/api/subscriptions';
import { showToast } from '../../../components/data/toast';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { subscriptionMessages, useUnpauseSubscriptionMutation } from '../subscriptions-endpoints';

/**
 * Ending a pause under way before its time: the next period starts today and is charged now, so
 * the dialog says how much before the customer confirms, and shows the server's refusal in place.
 */
export function ResumeNowDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose(): void;
}) {
  const [unpause, { isLoading }] = useUnpauseSubscriptionMutation();
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setProblem(null);
  }, [opened]);
  const { plan } = subscription;
  const charge = formatMoney(subscription.next_charge?.amount_minor ?? plan.price_minor, plan.currency);
  const resumes = subscription.pause ? formatDate(subscription.pause.resumes_at) : null;

  const confirm = async () => {
    setProblem(null);
    try {
      await unpause(subscription.id).unwrap();
    } catch (error) {
      setProblem(failureMessage(error, subscriptionMessages.unpauseFailed));
      return;
    }
    showToast({
      title: 'Subscription resumed',
      message: `${plan.name} is active again and its license works.`,
    });
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !isLoading && onClose()}
      title={`Resume ${plan.name} now?`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        {problem ? <FormAlert title="Not resumed">{problem}</FormAlert> : null}
        <Text size="sm">
          The next period starts today and {charge} is charged now
          {subscription.payment_method ? ` to ${subscription.payment_method}` : ''}. Your license works again
          as soon as it is paid.
          {resumes ? ` Otherwise it stays paused until ${resumes}, when it resumes by itself.` : ''}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isLoading} data-autofocus>
            Stay paused
          </Button>
          <Button onClick={() => void confirm()} loading={isLoading}>
            Resume now
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
