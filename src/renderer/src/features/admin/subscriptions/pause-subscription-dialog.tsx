import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  interval === 'month'
    ? plural(count, { one: '# month', other: '# months' })
    : plural(count, { one: '# year', other: '# years' });

/** Whose subscription it is, and what pausing or ending the pause does. */
function PauseIntro({
  subscription,
  action,
  planned,
}: {
  subscription: AdminSubscription;
  action: PauseAction;
  planned: boolean;
}) {
  const { t } = useLingui();
  const planName = subscription.plan.name;
  const email = subscription.user_email ?? t`a deleted account`;
  const end = subscription.current_period_end ? periodDate(subscription.current_period_end) : null;
  const effect =
    action === 'pause'
      ? end
        ? t`The license keeps working until the end of the paid period (${end}), then reads paused and nothing is charged until it resumes by itself, when the next period is charged.`
        : t`The license keeps working until the end of the paid period, then reads paused and nothing is charged until it resumes by itself, when the next period is charged.`
      : planned
        ? t`The planned pause is withdrawn: the subscription renews at the end of its period as before.`
        : t`The next period starts now and is charged now; the license works again once it is paid.`;
  return (
    <Text size="sm">
      <Trans>
        {planName} of <strong style={{ overflowWrap: 'anywhere' }}>{email}</strong>.
      </Trans>{' '}
      {effect}
    </Text>
  );
}

/**
 * An administrator's pause of a customer's subscription (one to three billing periods from the
 * paid period's end) or its end, with the reason kept in the security log. The customer's rules
 * apply: the server's refusal (past due, cancelled at period end, already paused) is shown here.
 */
export function PauseSubscriptionDialog({ subscription, action, onClose }: PauseSubscriptionDialogProps) {
  const { t } = useLingui();
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
        action === 'pause'
          ? t`Say why you pause it: the reason is kept in the security log`
          : t`Say why you resume it: the reason is kept in the security log`,
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
        const starts = paused.pause ? periodDate(paused.pause.starts_at) : null;
        const resumes = paused.pause ? periodDate(paused.pause.resumes_at) : null;
        notifications.show({
          color: 'teal',
          title: t`Pause planned`,
          message:
            starts && resumes
              ? t`It pauses on ${starts} and resumes on ${resumes}. The customer is told by e-mail.`
              : t`It pauses at the end of the paid period. The customer is told by e-mail.`,
        });
      } else {
        await unpause({ id: subscription.id, body: { reason: reason.trim() } }).unwrap();
        notifications.show({
          color: 'teal',
          title: planned ? t`Pause withdrawn` : t`Subscription resumed`,
          message: planned
            ? t`It renews as before. The customer is told by e-mail.`
            : t`Its next period started now and is charged now; the license works again. The customer is told by e-mail.`,
        });
      }
      onClose();
    } catch (error) {
      const fallback =
        action === 'pause' ? adminSubscriptionMessages.pauseFailed : adminSubscriptionMessages.unpauseFailed;
      setFailure(toSubmitFailure(error, fallback).message);
    }
  };

  const title =
    action === 'pause' ? t`Pause subscription?` : planned ? t`Withdraw the pause?` : t`Resume now?`;
  const chosen = periodsWord(Number(periods), interval);
  return (
    <FormDialog
      opened={subscription !== null}
      ready={subscription !== null}
      onClose={onClose}
      title={title}
      onSubmit={(event) => void submit(event)}
      intro={subscription && <PauseIntro subscription={subscription} action={action} planned={planned} />}
      failure={failure}
      failureTitle={action === 'pause' ? t`Could not pause the subscription` : t`Could not end the pause`}
      submitLabel={
        action === 'pause' ? t`Pause for ${chosen}` : planned ? t`Withdraw the pause` : t`Resume now`
      }
      cancelLabel={t`Keep as it is`}
      submitting={submitting}
    >
      <Stack gap="md">
        {action === 'pause' ? (
          <Radio.Group label={t`For how long`} value={periods} onChange={setPeriods} name="pause-periods">
            <Stack gap="xs" mt="xs">
              {CHOICES.map((count) => {
                const resumes = resumesAt(Number(count));
                return (
                  <Radio
                    key={count}
                    value={count}
                    label={periodsWord(Number(count), interval)}
                    description={resumes ? t`Resumes on ${resumes}` : undefined}
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
