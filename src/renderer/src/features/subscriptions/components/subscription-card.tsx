import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Subscription } from '../../../../../shared/api/subscriptions';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { AlertIcon } from '../../../components/brand/icons';
import { Notice } from '../../../components/data/alert-notice';
import { SandboxBadge } from '../../../components/data/payment-status-badge';
import { StatusBadge } from '../../../components/data/status-badge';
import { showToast } from '../../../components/data/toast';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import {
  canPause,
  describeCredit,
  describeSubscriptionStatus,
  formatRecurringPrice,
  INTERVAL_ADJECTIVES,
  isLive,
  paymentMethodText,
  type StatusNotice,
} from '../subscription-format';
import {
  subscriptionMessages,
  usePayOutstandingMutation,
  useResumeSubscriptionMutation,
  useUnpauseSubscriptionMutation,
} from '../subscriptions-endpoints';
import { useCardChange } from '../use-card-change';
import { CancelDialog } from './cancel-dialog';
import { inCurrency } from '../../plans';
import { ChangePlanDialog, type RecurringPlan } from './change-plan-dialog';
import { ChargeHistory } from './charge-history';
import { PauseDialog } from './pause-dialog';
import { ResumeNowDialog } from './resume-now-dialog';
import { SandboxControls } from './sandbox-controls';
import { onCardTrial } from '../card-trial';

/** One term of the card's list: a `div` holding its `dt` and `dd`, as `<dl>` allows. */
function Term({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={500} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Box component="dd" m={0} mt={2}>
        {children}
      </Box>
    </div>
  );
}

const NOTICE_COLORS: Record<StatusNotice['tone'], string> = {
  danger: 'red',
  warning: 'yellow',
  info: 'blue',
};

/** The plan of the other interval in the same tier ("pro-monthly" ↔ "pro-yearly"), when one is on sale. */
export function counterpartPlan(
  current: Subscription['plan'],
  plans: readonly RecurringPlan[],
): RecurringPlan | undefined {
  const stem = (code: string) => code.toLowerCase().replace(/[-_ ]?(monthly|yearly|annual|month|year)$/, '');
  return plans.find(
    (plan) =>
      plan.id !== current.id &&
      plan.billing_interval !== current.billing_interval &&
      stem(plan.code) === stem(current.code),
  );
}

/** "Pay now ₹999": the button that pays what is outstanding. */
const payNowLabel = (amount: string) => t`Pay now ${amount}`;

/** The card's "Next charge": how much and when, or why there is none. */
function nextChargeText(subscription: Subscription): string {
  if (subscription.next_charge) {
    const amount = formatMoney(subscription.next_charge.amount_minor, subscription.next_charge.currency);
    const date = formatDate(subscription.next_charge.at);
    return t`${amount} on ${date}`;
  }
  if (subscription.status === 'cancelled' && subscription.ended_at) {
    const ended = formatDate(subscription.ended_at);
    return t`None: ended on ${ended}`;
  }
  if (
    subscription.status !== 'cancelled' &&
    subscription.cancel_at_period_end &&
    subscription.current_period_end
  ) {
    const end = formatDate(subscription.current_period_end);
    return t`None: ends on ${end}`;
  }
  return t`None`;
}

type Dialog =
  | { kind: 'cancel' }
  | { kind: 'pause' }
  | { kind: 'resume-now' }
  | { kind: 'plan'; planId: string | null; title: string }
  | null;

/** A subscription as a card: its state and what to do about it, its dates and money, its actions and charges. */
export function SubscriptionCard({
  subscription,
  plans,
}: {
  subscription: Subscription;
  /** The monthly and yearly plans on sale, for changing plan. */
  plans: readonly RecurringPlan[];
}) {
  const { t, i18n } = useLingui();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [resume, resumeCall] = useResumeSubscriptionMutation();
  const [payNow, payCall] = usePayOutstandingMutation();
  const [withdrawPause, withdrawCall] = useUnpauseSubscriptionMutation();
  const cardChange = useCardChange(subscription);
  const status = describeSubscriptionStatus(subscription);
  const { plan } = subscription;
  const titleId = `subscription-${subscription.id}`;
  const live = isLive(subscription);
  // A card trial changes plan only after its first charge (the server refuses it before).
  const changeable =
    subscription.status === 'active' && !subscription.cancel_at_period_end && !onCardTrial(subscription);
  // A subscription is charged in the currency it was bought in: the plans sold in it, at that price.
  const others = plans
    .map((candidate): RecurringPlan => ({
      ...inCurrency(candidate, plan.currency),
      billing_interval: candidate.billing_interval,
    }))
    .filter((candidate) => candidate.id !== plan.id && candidate.currency === plan.currency);
  const counterpart = counterpartPlan(plan, others);
  const planName = plan.name;

  const runResume = async () => {
    try {
      await resume(subscription.id).unwrap();
      showToast({ title: t`Subscription resumed`, message: t`${planName} renews as before.` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Not resumed`,
        message: failureMessage(error, subscriptionMessages.resumeFailed),
      });
    }
  };

  // A pause still to come is withdrawn at once: nothing is charged, the subscription renews as before.
  const runWithdrawPause = async () => {
    try {
      await withdrawPause(subscription.id).unwrap();
      showToast({ title: t`Pause withdrawn`, message: t`${planName} renews as before.` });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`The pause was not withdrawn`,
        message: failureMessage(error, subscriptionMessages.unpauseFailed),
      });
    }
  };

  const runPayNow = async () => {
    try {
      await payNow(subscription.id).unwrap();
      showToast({
        title: t`Payment received`,
        message: t`${planName} is active and its license works again.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`The payment did not go through`,
        message: failureMessage(error, subscriptionMessages.payNowFailed),
      });
    }
  };

  const canPay = status.notice?.canPayNow ?? false;
  const pauseWithdrawable =
    subscription.status === 'active' && !subscription.cancel_at_period_end && subscription.pause !== null;
  // Razorpay takes a new card through its Checkout (an outstanding charge is paid with it at once).
  const canChangeCard = !subscription.sandbox && live;
  // Past due or suspended, the notice offers it beside what is owed; otherwise the actions do.
  const cardChangeInNotice = canChangeCard && !!status.notice && status.notice.tone !== 'info';
  return (
    <Card
      withBorder
      padding="lg"
      component="article"
      aria-labelledby={titleId}
      data-testid="subscription-card"
    >
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2}>
            <Title order={2} size="h4" id={titleId}>
              {plan.name}
            </Title>
            <Text size="sm" c="dimmed">
              {i18n._(INTERVAL_ADJECTIVES[plan.billing_interval])} ·{' '}
              {formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval)}
            </Text>
          </Stack>
          <Group gap={6}>
            <StatusBadge tone={status.tone} data-testid="subscription-status">
              {status.label}
            </StatusBadge>
            {subscription.sandbox ? <SandboxBadge /> : null}
          </Group>
        </Group>

        {status.notice ? (
          <Notice
            color={NOTICE_COLORS[status.notice.tone]}
            icon={<AlertIcon size={20} />}
            title={status.notice.title}
            role={status.notice.tone === 'info' ? 'status' : 'alert'}
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{status.notice.message}</Text>
              {canPay ? (
                <Button
                  size="xs"
                  color={status.notice.tone === 'danger' ? 'red.9' : undefined}
                  onClick={() => void runPayNow()}
                  loading={payCall.isLoading}
                >
                  {subscription.next_charge
                    ? payNowLabel(
                        formatMoney(subscription.next_charge.amount_minor, subscription.next_charge.currency),
                      )
                    : t`Pay now`}
                </Button>
              ) : null}
              {pauseWithdrawable ? (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => void runWithdrawPause()}
                  loading={withdrawCall.isLoading}
                >
                  <Trans>Don’t pause</Trans>
                </Button>
              ) : null}
              {subscription.status === 'paused' ? (
                <Button size="xs" onClick={() => setDialog({ kind: 'resume-now' })}>
                  <Trans>Resume now…</Trans>
                </Button>
              ) : null}
              {cardChangeInNotice ? (
                <Button
                  size="xs"
                  color={status.notice.tone === 'danger' ? 'red.9' : undefined}
                  onClick={() => void cardChange.start()}
                  loading={cardChange.busy}
                >
                  <Trans>Update card</Trans>
                </Button>
              ) : null}
            </Stack>
          </Notice>
        ) : null}

        <Box
          component="dl"
          m={0}
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))',
            gap: 'var(--mantine-spacing-md) var(--mantine-spacing-xl)',
          }}
        >
          <Term
            label={
              onCardTrial(subscription)
                ? t`Free trial`
                : subscription.status === 'paused'
                  ? t`Last paid period`
                  : t`Current period`
            }
          >
            <Text size="sm">
              {subscription.current_period_start && subscription.current_period_end
                ? `${formatDate(subscription.current_period_start)} – ${formatDate(subscription.current_period_end)}`
                : '—'}
            </Text>
          </Term>
          <Term label={t`Next charge`}>
            <Text size="sm" data-testid="next-charge">
              {nextChargeText(subscription)}
            </Text>
          </Term>
          <Term label={t`Payment method`}>
            <Text size="sm">
              {subscription.payment_method ? paymentMethodText(subscription.payment_method) : t`None on file`}
            </Text>
          </Term>
          <Term label={t`Kept credit`}>
            <Text size="sm" data-testid="kept-credit">
              {describeCredit(subscription)}
            </Text>
          </Term>
          {subscription.license_id ? (
            <Term label={t`License`}>
              <Anchor
                component={Link}
                to={pathWith(portalPaths.licenseDetail, { licenseId: subscription.license_id })}
                size="sm"
                underline="always"
              >
                <Trans>View the license</Trans>
              </Anchor>
            </Term>
          ) : null}
        </Box>

        {live ? (
          <Group gap="sm" wrap="wrap">
            {changeable ? (
              <Button
                variant="default"
                size="sm"
                onClick={() => setDialog({ kind: 'plan', planId: null, title: t`Change plan` })}
              >
                <Trans>Change plan…</Trans>
              </Button>
            ) : null}
            {changeable && counterpart ? (
              <Button
                variant="default"
                size="sm"
                onClick={() =>
                  setDialog({
                    kind: 'plan',
                    planId: counterpart.id,
                    title:
                      counterpart.billing_interval === 'year' ? t`Switch to yearly` : t`Switch to monthly`,
                  })
                }
              >
                {counterpart.billing_interval === 'year' ? t`Switch to yearly…` : t`Switch to monthly…`}
              </Button>
            ) : null}
            {canChangeCard && !cardChangeInNotice ? (
              <Button
                variant="default"
                size="sm"
                onClick={() => void cardChange.start()}
                loading={cardChange.busy}
              >
                <Trans>Update card…</Trans>
              </Button>
            ) : null}
            {canPause(subscription) ? (
              <Button variant="default" size="sm" onClick={() => setDialog({ kind: 'pause' })}>
                <Trans>Pause…</Trans>
              </Button>
            ) : null}
            {subscription.cancel_at_period_end && subscription.status === 'active' ? (
              <Button size="sm" onClick={() => void runResume()} loading={resumeCall.isLoading}>
                <Trans>Resume subscription</Trans>
              </Button>
            ) : (
              <Button variant="default" size="sm" onClick={() => setDialog({ kind: 'cancel' })}>
                <Trans>Cancel subscription…</Trans>
              </Button>
            )}
          </Group>
        ) : null}

        {subscription.sandbox && live ? <SandboxControls subscription={subscription} /> : null}

        <ChargeHistory subscriptionId={subscription.id} headingId={`${titleId}-charges`} />
      </Stack>

      <CancelDialog
        subscription={subscription}
        opened={dialog?.kind === 'cancel'}
        onClose={() => setDialog(null)}
      />
      <PauseDialog
        subscription={subscription}
        opened={dialog?.kind === 'pause'}
        onClose={() => setDialog(null)}
      />
      <ResumeNowDialog
        subscription={subscription}
        opened={dialog?.kind === 'resume-now'}
        onClose={() => setDialog(null)}
      />
      <ChangePlanDialog
        subscription={subscription}
        plans={others}
        initialPlanId={dialog?.kind === 'plan' ? dialog.planId : null}
        title={dialog?.kind === 'plan' ? dialog.title : t`Change plan`}
        opened={dialog?.kind === 'plan'}
        onClose={() => setDialog(null)}
      />
    </Card>
  );
}
