import { Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { type AdminSubscription } from '../../../../../shared/api/admin-subscriptions';
import { MAX_PAUSE_PERIODS } from '../../../../../shared/api/subscriptions';
import { utc } from '../../../../../shared/dates';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import {
  adminSubscriptionMessages,
  usePauseAdminSubscriptionMutation,
  useUnpauseAdminSubscriptionMutation,
} from './admin-subscriptions-endpoints';
import { AdminReasonField } from './admin-reason-field';
import { periodDate } from './subscription-labels';

/** Pause for some periods, or end a pause (resume a paused one now, or withdraw one planned). */
export type PauseAction = 'pause' | 'resume';

export interface PauseSubscriptionDialogProps {
  subscription: AdminSubscription | null;
  action: PauseAction;
  onClose: () => void;
}

const CHOICES = Array.from({ length: MAX_PAUSE_PERIODS }, (_, index) => String(index + 1));

const periodsWord = (count: number, interval: 'month' | 'year') =>
  `${count} ${interval}${count === 1 ? '' : 's'}`;

/**
 * An administrator's pause of a customer's subscription (one to three billing periods from the
 * paid period's end) or its end, with the reason kept in the security log. The customer's rules
 * apply: the server's refusal (past due, cancelled at period end, already paused) is shown here.
 */
export function PauseSubscriptionDialog({ subscription, action, onClose }: PauseSubscriptionDialogProps) {
  const [pause, pauseCall] = usePauseAdminSubscriptionMutation();
  const [unpause, unpauseCall] = useUnpauseAdminSubscriptionMutation();
  const [periods, setPeriods] = useState('1');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    setPeriods('1');
    setReason('');
    setReasonError(undefined);
    setFailure(undefined);
  }, [subscription, action]);

  const planned = subscription?.status === 'active' && subscription.pause !== null;
  const interval = subscription?.plan.billing_interval ?? 'month';
  const resumesAt = (count: number) =>
    subscription?.current_period_end
      ? periodDate(utc(subscription.current_period_end).add(count, interval).toISOString())
      : null;
  const submitting = pauseCall.isLoading || unpauseCall.isLoading;

  const submit = async (event?: React.FormEvent) => {
    event?.preventDefault();
    if (!subscription) return;
    if (!reason.trim()) {
      setReasonError(
        `Say why you ${action === 'pause' ? 'pause' : 'resume'} it: the reason is kept in the security log`,
      );
      document.getElementById('pause-subscription-reason')?.focus();
      return;
    }
    setFailure(undefined);
    try {
      if (action === 'pause') {
        const paused = await pause({
          id: subscription.id,
          body: { periods: Number(periods), reason: reason.trim() },
        }).unwrap();
        notifications.show({
          color: 'teal',
          title: 'Pause planned',
          message: paused.pause
            ? `It pauses on ${periodDate(paused.pause.starts_at)} and resumes on ${periodDate(paused.pause.resumes_at)}. The customer is told by e-mail.`
            : 'It pauses at the end of the paid period. The customer is told by e-mail.',
        });
      } else {
        await unpause({ id: subscription.id, body: { reason: reason.trim() } }).unwrap();
        notifications.show({
          color: 'teal',
          title: planned ? 'Pause withdrawn' : 'Subscription resumed',
          message: planned
            ? 'It renews as before. The customer is told by e-mail.'
            : 'Its next period started now and is charged now; the license works again. The customer is told by e-mail.',
        });
      }
      onClose();
    } catch (error) {
      const fallback =
        action === 'pause' ? adminSubscriptionMessages.pauseFailed : adminSubscriptionMessages.unpauseFailed;
      setFailure(toSubmitFailure(error, fallback).message);
    }
  };

  const title = action === 'pause' ? 'Pause subscription?' : planned ? 'Withdraw the pause?' : 'Resume now?';
  return (
    <FormDialog
      opened={subscription !== null}
      ready={subscription !== null}
      onClose={onClose}
      title={title}
      onSubmit={(event) => void submit(event)}
      intro={
        subscription && (
          <Text size="sm">
            {subscription.plan.name} of{' '}
            <strong style={{ overflowWrap: 'anywhere' }}>
              {subscription.user_email ?? 'a deleted account'}
            </strong>
            .{' '}
            {action === 'pause'
              ? `The license keeps working until the end of the paid period${subscription.current_period_end ? ` (${periodDate(subscription.current_period_end)})` : ''}, then reads paused and nothing is charged until it resumes by itself, when the next period is charged.`
              : planned
                ? 'The planned pause is withdrawn: the subscription renews at the end of its period as before.'
                : 'The next period starts now and is charged now; the license works again once it is paid.'}
          </Text>
        )
      }
      failure={failure}
      failureTitle={action === 'pause' ? 'Could not pause the subscription' : 'Could not end the pause'}
      submitLabel={
        action === 'pause'
          ? `Pause for ${periodsWord(Number(periods), interval)}`
          : planned
            ? 'Withdraw the pause'
            : 'Resume now'
      }
      cancelLabel="Keep as it is"
      submitting={submitting}
    >
      <Stack gap="md">
        {action === 'pause' ? (
          <Radio.Group label="For how long" value={periods} onChange={setPeriods} name="pause-periods">
            <Stack gap="xs" mt="xs">
              {CHOICES.map((count) => {
                const resumes = resumesAt(Number(count));
                return (
                  <Radio
                    key={count}
                    value={count}
                    label={periodsWord(Number(count), interval)}
                    description={resumes ? `Resumes on ${resumes}` : undefined}
                  />
                );
              })}
            </Stack>
          </Radio.Group>
        ) : null}
        <AdminReasonField
          id="pause-subscription-reason"
          value={reason}
          error={reasonError}
          onChange={(value) => {
            setReason(value);
            setReasonError(undefined);
          }}
        />
      </Stack>
    </FormDialog>
  );
}
