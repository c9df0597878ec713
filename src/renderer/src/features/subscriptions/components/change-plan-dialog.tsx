import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Group, Modal, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Plan } from '../../../../../shared/api/plans';
import {
  PLAN_CHANGE_QUOTE_VALIDITY_MINUTES,
  type PlanChangeQuote,
  type Subscription,
  type SubscriptionCheckout,
} from '../../../../../shared/api/subscriptions';
import { QuoteRow } from '../../../components/data/quote-row';
import { Notice } from '../../../components/data/alert-notice';
import { showToast } from '../../../components/data/toast';
import { FormAlert } from '../../../components/forms/form-alert';
import { failureMessage, isApiFailure } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { formatRecurringPrice, formatTime } from '../subscription-format';
import {
  subscriptionMessages,
  useChangeSubscriptionPlanMutation,
  useQuotePlanChangeMutation,
} from '../subscriptions-endpoints';
import { useReplacementCheckout } from '../use-replacement-checkout';

/** A plan a subscription can move to: billed monthly or yearly. */
export type RecurringPlan = Plan & { billing_interval: 'month' | 'year' };

/**
 * The quote as the customer confirms it: credit, balance, due now, what is kept, the new period.
 * With Razorpay the credit is refunded to the card rather than taken off the new price.
 */
export function QuoteSummary({ quote }: { quote: PlanChangeQuote }) {
  const { t } = useLingui();
  const money = (minor: number) => formatMoney(minor, quote.currency);
  const refunded = quote.refund_minor > 0;
  const planName = quote.plan.name;
  const minutes = PLAN_CHANGE_QUOTE_VALIDITY_MINUTES;
  const until = formatTime(quote.expires_at);
  const dueNow = money(quote.due_now_minor);
  return (
    <Stack component="dl" gap={6} m={0} data-testid="plan-change-quote">
      <QuoteRow label={t`${planName} price`}>
        {formatRecurringPrice(quote.plan.price_minor, quote.currency, quote.plan.billing_interval)}
      </QuoteRow>
      {refunded ? (
        <QuoteRow label={t`Credit for the unused part of this period, refunded to your card`}>
          {money(quote.refund_minor)}
        </QuoteRow>
      ) : (
        <QuoteRow label={t`Credit for the unused part of this period`}>
          − {money(quote.credit_minor)}
        </QuoteRow>
      )}
      {quote.balance_minor > 0 ? (
        <QuoteRow label={t`Balance kept from earlier changes`}>− {money(quote.balance_minor)}</QuoteRow>
      ) : null}
      <QuoteRow label={t`Due now`} strong>
        {money(quote.due_now_minor)}
      </QuoteRow>
      {refunded ? null : (
        <QuoteRow label={t`Balance kept for your next charges`}>{money(quote.balance_after_minor)}</QuoteRow>
      )}
      <QuoteRow label={t`New period`}>
        {formatDate(quote.period_start)} – {formatDate(quote.period_end)}
      </QuoteRow>
      <Text size="xs" c="dimmed" data-testid="plan-change-quote-validity">
        <Trans>
          This price holds for {minutes} minutes, until {until}: confirm by then and exactly {dueNow} is
          charged.
        </Trans>
      </Text>
    </Stack>
  );
}

/** Holds the quote's place while it loads, at about its height, so the dialog does not jump. */
function QuoteSkeleton() {
  const { t } = useLingui();
  return (
    <Stack gap={10} aria-busy="true" aria-label={t`Working out the price of the change`}>
      {Array.from({ length: 5 }, (_, index) => (
        <Skeleton key={index} height={16} />
      ))}
    </Stack>
  );
}

const changeAndPay = (amount: string) => t`Change and pay ${amount}`;

type QuoteState =
  | { step: 'idle' }
  | { step: 'loading' }
  | { step: 'ready'; quote: PlanChangeQuote }
  | { step: 'failed'; message: string };

/** The server's refusals that mean the quote shown no longer holds: a new one is shown instead. */
const STALE_QUOTE_CODES = new Set(['quote_expired', 'quote_changed', 'subscription_changed']);

/**
 * Changing a subscription's plan (or switching it between monthly and yearly): pick a plan, see
 * what it costs now (the unused part of the period credited, the balance kept), confirm. The quote
 * is confirmed by its id, so the change is charged exactly what it showed while it holds (10
 * minutes). Once it expired, or when the subscription changed since (a renewal landed), the server
 * refuses it: the dialog says so and shows a new quote to confirm again.
 */
export function ChangePlanDialog({
  subscription,
  plans,
  initialPlanId,
  title,
  opened,
  onClose,
}: {
  subscription: Subscription;
  /** The plans it may move to (monthly or yearly, not its own). */
  plans: RecurringPlan[];
  initialPlanId?: string | null;
  title?: string;
  opened: boolean;
  onClose(): void;
}) {
  const { t } = useLingui();
  const [requestQuote] = useQuotePlanChangeMutation();
  const planName = subscription.plan.name;
  const [changePlan, { isLoading: opening }] = useChangeSubscriptionPlanMutation();
  const payReplacement = useReplacementCheckout();
  const [paying, setPaying] = useState(false);
  const changing = opening || paying;
  const [planId, setPlanId] = useState<string | null>(null);
  const [quote, setQuote] = useState<QuoteState>({ step: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const [repriced, setRepriced] = useState<string | null>(null);
  // Only the newest quote request may fill the dialog (the customer may click through plans).
  const latest = useRef(0);

  const loadQuote = useCallback(
    async (id: string) => {
      const request = ++latest.current;
      setQuote({ step: 'loading' });
      try {
        const answer = await requestQuote({ id: subscription.id, planId: id }).unwrap();
        if (request === latest.current) setQuote({ step: 'ready', quote: answer });
      } catch (error) {
        if (request === latest.current)
          setQuote({ step: 'failed', message: failureMessage(error, subscriptionMessages.quoteFailed) });
      }
    },
    [requestQuote, subscription.id],
  );

  useEffect(() => {
    if (!opened) return;
    const first = initialPlanId ?? null;
    setPlanId(first);
    setProblem(null);
    setRepriced(null);
    setQuote({ step: 'idle' });
    if (first) void loadQuote(first);
  }, [opened, initialPlanId, loadQuote]);

  const choose = (id: string) => {
    setPlanId(id);
    setProblem(null);
    setRepriced(null);
    void loadQuote(id);
  };

  const confirm = async () => {
    if (quote.step !== 'ready' || !planId) return;
    setProblem(null);
    setRepriced(null);
    let answer: Subscription | SubscriptionCheckout;
    try {
      answer = await changePlan({ id: subscription.id, planId, quoteId: quote.quote.id }).unwrap();
    } catch (error) {
      if (isApiFailure(error) && error.code !== undefined && STALE_QUOTE_CODES.has(error.code)) {
        setRepriced(error.message);
        void loadQuote(planId);
        return;
      }
      setProblem(failureMessage(error, subscriptionMessages.changePlanFailed));
      return;
    }
    const paid = quote.quote.due_now_minor;
    const newPlanName = quote.quote.plan.name;
    if ('key_id' in answer) {
      // Razorpay: the new plan's subscription is paid in its window, and then takes over.
      setPaying(true);
      const result = await payReplacement(answer);
      setPaying(false);
      if (result.outcome !== 'paid') {
        setProblem(
          result.outcome === 'dismissed'
            ? t`The payment window was closed: nothing was charged and you stay on ${planName}.`
            : result.message,
        );
        return;
      }
      const charged = formatMoney(paid, quote.quote.currency);
      const refund = formatMoney(quote.quote.refund_minor, quote.quote.currency);
      const until = formatDate(result.activation.subscription.current_period_end ?? quote.quote.period_end);
      showToast({
        title: t`Now on ${newPlanName}`,
        message:
          quote.quote.refund_minor > 0
            ? t`${charged} was charged and ${refund} for the unused part of ${planName} is refunded to your card; the new period runs until ${until}.`
            : t`${charged} was charged; the new period runs until ${until}.`,
      });
      onClose();
      return;
    }
    const charged = formatMoney(paid, quote.quote.currency);
    const until = formatDate(quote.quote.period_end);
    showToast({
      title: t`Now on ${newPlanName}`,
      message:
        paid > 0
          ? t`${charged} was charged; the new period runs until ${until}.`
          : t`Nothing was charged now; the new period runs until ${until}.`,
    });
    onClose();
  };

  const ready = quote.step === 'ready' ? quote.quote : null;
  return (
    <Modal
      opened={opened}
      onClose={() => !changing && onClose()}
      title={`${title ?? t`Change plan`}: ${planName}`}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t`Close` }}
    >
      <Stack gap="md">
        {problem ? <FormAlert title={t`The plan was not changed`}>{problem}</FormAlert> : null}
        {repriced ? (
          <Notice color="yellow" title={t`The quote no longer holds`} role="alert">
            <Trans>{repriced}. The new quote is below; nothing was charged.</Trans>
          </Notice>
        ) : null}
        {plans.length === 0 ? (
          <Text size="sm">
            <Trans>No other monthly or yearly plan is on sale right now.</Trans>
          </Text>
        ) : (
          <Radio.Group value={planId} onChange={choose} label={t`Move to`} name="change-plan">
            <Stack gap="xs" mt="xs">
              {plans.map((plan) => (
                <Radio
                  key={plan.id}
                  value={plan.id}
                  label={`${plan.name} — ${formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval)}`}
                  description={plan.description}
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
        <Box
          aria-live="polite"
          p="md"
          style={{
            border: '1px solid var(--mantine-color-default-border)',
            borderRadius: 'var(--mantine-radius-md)',
            minHeight: 168,
          }}
        >
          {quote.step === 'idle' ? (
            <Text size="sm" c="dimmed">
              <Trans>
                Choose a plan to see what it costs now. The unused part of your current period is credited.
              </Trans>
            </Text>
          ) : quote.step === 'loading' ? (
            <QuoteSkeleton />
          ) : quote.step === 'failed' ? (
            <Text size="sm" c="var(--mantine-color-error)" role="alert">
              {quote.message}
            </Text>
          ) : (
            <QuoteSummary quote={quote.quote} />
          )}
        </Box>
        <Text size="xs" c="dimmed">
          {subscription.sandbox
            ? t`The change takes effect at once: a new period starts today and the license follows the new plan.`
            : t`Razorpay’s window opens to pay the new plan. Once paid, a new period starts today, the license follows the new plan, your current subscription ends and the credit is refunded to your card.`}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={changing} data-autofocus>
            <Trans>Keep current plan</Trans>
          </Button>
          <Button onClick={() => void confirm()} loading={changing} disabled={!ready}>
            {ready && ready.due_now_minor > 0
              ? changeAndPay(formatMoney(ready.due_now_minor, ready.currency))
              : t`Change plan`}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
