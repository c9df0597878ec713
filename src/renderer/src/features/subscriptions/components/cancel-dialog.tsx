import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Subscription } from '../../../../../shared/api/subscriptions';
import { Notice } from '../../../components/data/alert-notice';
import { showToast } from '../../../components/data/toast';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { creditOnCancel, describeCreditOnCancel } from '../subscription-format';
import { subscriptionMessages, useCancelSubscriptionMutation } from '../subscriptions-endpoints';
import { onCardTrial } from '../card-trial';

type When = 'period_end' | 'now';

/**
 * Cancelling, with what happens to the license and the money either way: at the end of the paid
 * period (the default; it keeps working until then, can be resumed, nothing of the period is
 * refunded) or now (it stops now and the unused part of the period is refunded, the amount the
 * server worked out when the page loaded). Either way the credit kept from a move to a cheaper plan
 * is refunded, and what of it cannot be is said plainly before the customer confirms. A subscription
 * whose payment failed has no paid period left, so it can only end now.
 */
export function CancelDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [cancel, { isLoading }] = useCancelSubscriptionMutation();
  // A card trial: nothing was paid, so there is no period to choose: it ends now, charging nothing.
  const trial = onCardTrial(subscription);
  const paidUp = subscription.status === 'active' && !trial;
  const [when, setWhen] = useState<When>(paidUp ? 'period_end' : 'now');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (opened) {
      setWhen(paidUp ? 'period_end' : 'now');
      setProblem(null);
    }
  }, [opened, paidUp]);
  const end = subscription.current_period_end ? formatDate(subscription.current_period_end) : null;
  const refund = subscription.cancel_now_refund_minor;
  const refundText = refund > 0 ? formatMoney(refund, subscription.plan.currency) : null;
  const credit = creditOnCancel(subscription);
  const creditText = describeCreditOnCancel(subscription);
  const creditRefundText =
    credit.refundMinor > 0 ? formatMoney(credit.refundMinor, subscription.plan.currency) : null;
  const planName = subscription.plan.name;
  const nowDescription =
    subscription.status === 'paused'
      ? t`The subscription ends today and its license, paused now, does not work again. The paid period ended before the pause, so nothing of it is refunded.`
      : !paidUp
        ? creditRefundText
          ? t`The payment failed, so nothing is left of the paid period: the subscription and its license end today.`
          : t`The payment failed, so nothing is left of the paid period: the subscription and its license end today. Nothing is refunded.`
        : refundText
          ? t`The subscription ends and its license stops working today. The unused part of the paid period, about ${refundText}, is refunded to the payment method you paid with, with a credit note on the Billing page.`
          : t`The subscription ends and its license stops working today. Nothing is left of the paid period to refund.`;

  /** What the toast says once canceled. */
  const canceledMessage = (): string => {
    if (trial)
      return end
        ? t`Your card will not be charged. Your free trial of ${planName} runs until ${end}.`
        : t`Your card will not be charged. Your free trial of ${planName} runs until its end.`;
    const ended =
      when === 'period_end' && end
        ? t`${planName} ends on ${end}; no further charge will be made.`
        : refundText && paidUp
          ? t`${planName} has ended and its license no longer works. About ${refundText} is refunded.`
          : t`${planName} has ended and its license no longer works.`;
    return creditRefundText ? `${ended} ${t`Your kept credit of ${creditRefundText} is refunded.`}` : ended;
  };

  const confirm = async () => {
    setProblem(null);
    try {
      await cancel({ id: subscription.id, at: when }).unwrap();
    } catch (error) {
      setProblem(failureMessage(error, subscriptionMessages.cancelFailed));
      return;
    }
    showToast({ title: t`Subscription canceled`, message: canceledMessage() });
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => !isLoading && onClose()}
      title={t`Cancel ${planName}?`}
      centered
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Stack gap="md">
        {problem ? <FormAlert title={t`Not canceled`}>{problem}</FormAlert> : null}
        {trial ? (
          <Text size="sm" data-testid="cancel-trial">
            {end ? (
              <Trans>
                Your card is never charged: the subscription ends now, and your free trial keeps working until{' '}
                {end}. To keep {planName} afterwards, subscribe again.
              </Trans>
            ) : (
              <Trans>
                Your card is never charged: the subscription ends now, and your free trial keeps working until
                its end. To keep {planName} afterwards, subscribe again.
              </Trans>
            )}
          </Text>
        ) : (
          <Radio.Group
            value={when}
            onChange={(value) => setWhen(value as When)}
            label={t`When should it end?`}
            name="cancel-when"
          >
            <Stack gap="sm" mt="xs">
              {paidUp ? (
                <Radio
                  value="period_end"
                  label={end ? t`At the end of the paid period (${end})` : t`At the end of the paid period`}
                  description={
                    creditRefundText
                      ? t`No further charge, and nothing of the paid period is refunded. Your license keeps working until then and expires afterwards. You can resume the subscription before that date; the refunded credit is not taken off later charges.`
                      : t`No further charge, and nothing is refunded. Your license keeps working until then and expires afterwards. You can resume the subscription before that date.`
                  }
                />
              ) : null}
              <Radio value="now" label={t`Now`} description={nowDescription} />
            </Stack>
          </Radio.Group>
        )}
        {creditText ? (
          <Notice
            color={credit.keptMinor > 0 ? 'yellow' : 'blue'}
            title={t`Your kept credit`}
            data-testid="cancel-credit"
          >
            <Text size="sm">{creditText}</Text>
          </Notice>
        ) : null}
        <Text size="sm" c="dimmed">
          <Trans>Your invoices stay on the Billing page.</Trans>
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={isLoading} data-autofocus>
            <Trans>Keep subscription</Trans>
          </Button>
          <Button color="red.9" onClick={() => void confirm()} loading={isLoading}>
            {trial ? t`Cancel the trial` : when === 'now' ? t`Cancel now` : t`Cancel at period end`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
