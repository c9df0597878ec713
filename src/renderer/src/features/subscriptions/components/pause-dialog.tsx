import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { MAX_PAUSE_PERIODS, type Subscription } from '../../../../../shared/api/subscriptions';
import { showToast } from '../../../components/data/toast';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { pausePeriods, pauseResumesAt } from '../subscription-format';
import { subscriptionMessages, usePauseSubscriptionMutation } from '../subscriptions-endpoints';

const CHOICES = Array.from({ length: MAX_PAUSE_PERIODS }, (_, index) => index + 1);

/**
 * Pausing for one to three billing periods. The pause starts when the paid period ends, so the
 * dialog says first that the license keeps working until then, and for each choice until when it
 * is paused and that it then resumes by itself with the next charge. The server's refusal (past
 * due, cancelled at period end, already paused or planned) is shown here, in its words.
 */
export function PauseDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [pause, { isLoading }] = usePauseSubscriptionMutation();
  const [periods, setPeriods] = useState('1');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setPeriods('1');
      setProblem(null);
    }
  }, [opened]);
  const { plan } = subscription;
  const end = subscription.current_period_end ? formatDate(subscription.current_period_end) : null;
  const charge = formatMoney(subscription.next_charge?.amount_minor ?? plan.price_minor, plan.currency);
  const chosen = Number(periods);
  const length = pausePeriods(chosen, plan.billing_interval);
  const planName = plan.name;

  const confirm = async () => {
    setProblem(null);
    let paused: Subscription;
    try {
      paused = await pause({ id: subscription.id, periods: chosen }).unwrap();
    } catch (error) {
      setProblem(failureMessage(error, subscriptionMessages.pauseFailed));
      return;
    }
    const start = paused.pause ? formatDate(paused.pause.starts_at) : null;
    const resume = paused.pause ? formatDate(paused.pause.resumes_at) : null;
    showToast({
      title: t`Pause planned`,
      message:
        start && resume
          ? t`${planName} pauses on ${start} and resumes on ${resume}.`
          : t`${planName} pauses at the end of the paid period.`,
    });
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !isLoading && onClose()}
      title={t`Pause ${planName}?`}
      centered
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Stack gap="md">
        {problem ? <FormAlert title={t`Not paused`}>{problem}</FormAlert> : null}
        <Text size="sm" data-testid="pause-license-note">
          {end ? (
            <Trans>
              Your license keeps working until {end}, the end of the period you paid for. Then it is paused:
              it does not work and nothing is charged until the subscription resumes.
            </Trans>
          ) : (
            <Trans>
              Your license keeps working until the end of the paid period, the end of the period you paid for.
              Then it is paused: it does not work and nothing is charged until the subscription resumes.
            </Trans>
          )}
        </Text>
        <Radio.Group value={periods} onChange={setPeriods} label={t`For how long?`} name="pause-periods">
          <Stack gap="sm" mt="xs">
            {CHOICES.map((count) => {
              const resumesAt = pauseResumesAt(subscription, count);
              const resumes = resumesAt ? formatDate(resumesAt) : null;
              return (
                <Radio
                  key={count}
                  value={String(count)}
                  label={pausePeriods(count, plan.billing_interval)}
                  description={
                    resumes
                      ? t`Paused until ${resumes}, then it resumes by itself and ${charge} is charged.`
                      : undefined
                  }
                />
              );
            })}
          </Stack>
        </Radio.Group>
        <Text size="sm" c="dimmed">
          <Trans>
            You can resume sooner at any time: the next period then starts, and is charged, that day.
          </Trans>
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isLoading} data-autofocus>
            <Trans>Keep subscription</Trans>
          </Button>
          <Button onClick={() => void confirm()} loading={isLoading}>
            <Trans>Pause for {length}</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
