import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Subscription } from '../../../../../shared/api/subscriptions';
import { showToast } from '../../../components/data/toast';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { paymentMethodText } from '../subscription-format';
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
  const { t } = useLingui();
  const [unpause, { isLoading }] = useUnpauseSubscriptionMutation();
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (opened) setProblem(null);
  }, [opened]);
  const { plan } = subscription;
  const charge = formatMoney(subscription.next_charge?.amount_minor ?? plan.price_minor, plan.currency);
  const resumes = subscription.pause ? formatDate(subscription.pause.resumes_at) : null;
  const planName = plan.name;
  const method = subscription.payment_method ? paymentMethodText(subscription.payment_method) : null;

  const confirm = async () => {
    setProblem(null);
    try {
      await unpause(subscription.id).unwrap();
    } catch (error) {
      setProblem(failureMessage(error, subscriptionMessages.unpauseFailed));
      return;
    }
    showToast({
      title: t`Subscription resumed`,
      message: t`${planName} is active again and its license works.`,
    });
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !isLoading && onClose()}
      title={t`Resume ${planName} now?`}
      centered
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Stack gap="md">
        {problem ? <FormAlert title={t`Not resumed`}>{problem}</FormAlert> : null}
        <Text size="sm">
          {method ? (
            <Trans>
              The next period starts today and {charge} is charged now to {method}. Your license works again
              as soon as it is paid.
            </Trans>
          ) : (
            <Trans>
              The next period starts today and {charge} is charged now. Your license works again as soon as it
              is paid.
            </Trans>
          )}
          {resumes ? ' ' + t`Otherwise it stays paused until ${resumes}, when it resumes by itself.` : ''}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isLoading} data-autofocus>
            <Trans>Stay paused</Trans>
          </Button>
          <Button onClick={() => void confirm()} loading={isLoading}>
            <Trans>Resume now</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
