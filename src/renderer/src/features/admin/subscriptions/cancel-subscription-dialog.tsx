import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { type AdminSubscription } from '../../../../../shared/api/admin-subscriptions';
import { FormDialog } from '../../../components/forms/form-dialog';
import { toSubmitFailure } from '../../../components/forms/submit-failure';
import { formatAmount } from '../../../lib/format-money';
import {
  adminSubscriptionMessages,
  useCancelAdminSubscriptionMutation,
} from './admin-subscriptions-endpoints';
import { AdminReasonField } from './admin-reason-field';
import { periodDate } from './subscription-labels';

export interface CancelSubscriptionDialogProps {
  subscription: AdminSubscription | null;
  onClose: () => void;
}

type When = 'period_end' | 'now';

/** What cancelling does with the customer's kept credit, either way: refunded, and what cannot be. */
function creditSentence(subscription: AdminSubscription): string {
  const money = (minor: number) =>
    `${formatAmount(minor, subscription.plan.currency)} ${subscription.plan.currency}`;
  const refund = Math.min(subscription.cancel_credit_refund_minor, subscription.credit_minor);
  const kept = subscription.credit_minor - refund;
  const refunded = money(refund);
  const unrefunded = money(kept);
  return [
    refund > 0 ? t`Its kept credit of ${refunded} is refunded with a credit note.` : '',
    kept > 0
      ? t`${unrefunded} of kept credit cannot be refunded automatically (its payments were refunded already or taken by another provider).`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** "At the end of the paid period (27 Nov 2026)". */
function periodEndLabel(end: string | null): string {
  if (!end) return t`At the end of the paid period`;
  const date = periodDate(end);
  return t`At the end of the paid period (${date})`;
}

/** Whose subscription it is and what canceling it does. */
function CancelIntro({ subscription }: { subscription: AdminSubscription }) {
  const { t } = useLingui();
  const planName = subscription.plan.name;
  const email = subscription.user_email ?? t`a deleted account`;
  return (
    <Text size="sm">
      <Trans>
        {planName} of <strong style={{ overflowWrap: 'anywhere' }}>{email}</strong>. No further charge is
        made. To give money back, refund a charge from the list below the subscription.
      </Trans>
      {subscription.credit_minor > 0 ? ` ${creditSentence(subscription)}` : null}
    </Text>
  );
}

/**
 * Cancels a customer's subscription with the reason kept in the security log: at the end of the
 * paid period (no further charge) or now (the license ends now). The customer is mailed.
 */
export function CancelSubscriptionDialog({ subscription, onClose }: CancelSubscriptionDialogProps) {
  const { t } = useLingui();
  const [cancel, { isLoading }] = useCancelAdminSubscriptionMutation();
  const [when, setWhen] = useState<When>('period_end');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  useEffect(() => {
    setWhen('period_end');
    setReason('');
    setReasonError(undefined);
    setFailure(undefined);
  }, [subscription]);

  // Only an active subscription has a paid period to run out; past due or suspended ones end now.
  const canWait = subscription?.status === 'active' && !subscription.cancel_at_period_end;
  const at: When = canWait ? when : 'now';

  const submit = async (event?: React.FormEvent) => {
    event?.preventDefault();
    if (!subscription) return;
    if (!reason.trim()) {
      setReasonError(t`Say why you cancel it: the reason is kept in the security log`);
      document.getElementById('cancel-subscription-reason')?.focus();
      return;
    }
    setFailure(undefined);
    try {
      await cancel({ id: subscription.id, body: { at, reason: reason.trim() } }).unwrap();
      notifications.show({
        color: 'teal',
        title: t`Subscription canceled`,
        message:
          at === 'now'
            ? t`It has ended and its license with it. The customer is told by e-mail.`
            : t`It will not renew; the license runs to the end of the paid period. The customer is told by e-mail.`,
      });
      onClose();
    } catch (error) {
      setFailure(toSubmitFailure(error, adminSubscriptionMessages.cancelFailed).message);
    }
  };

  return (
    <FormDialog
      opened={subscription !== null}
      ready={subscription !== null}
      onClose={onClose}
      title={t`Cancel subscription?`}
      onSubmit={(event) => void submit(event)}
      intro={subscription && <CancelIntro subscription={subscription} />}
      failure={failure}
      failureTitle={t`Could not cancel the subscription`}
      submitLabel={at === 'now' ? t`Cancel now` : t`Cancel at period end`}
      submitColor="red.9"
      cancelLabel={t`Keep subscription`}
      submitting={isLoading}
    >
      <Stack gap="md">
        {canWait ? (
          <Radio.Group
            label={t`When`}
            value={when}
            onChange={(value) => setWhen(value as When)}
            name="cancel-when"
          >
            <Stack gap="xs" mt="xs">
              <Radio
                value="period_end"
                label={periodEndLabel(subscription?.current_period_end ?? null)}
                description={t`The license works until then.`}
              />
              <Radio value="now" label={t`Now`} description={t`The license ends now.`} />
            </Stack>
          </Radio.Group>
        ) : (
          <Text size="sm">
            {subscription?.status === 'active'
              ? t`It already ends at the end of its period; canceling now ends it and its license now.`
              : t`It is not paid up, so it ends now, and its license with it.`}
          </Text>
        )}
        <AdminReasonField
          id="cancel-subscription-reason"
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
