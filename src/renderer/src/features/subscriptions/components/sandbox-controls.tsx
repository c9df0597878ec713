import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { Subscription } from '../../../../../shared/api/subscriptions';
import { SandboxBadge } from '../../../components/data/payment-status-badge';
import { showToast } from '../../../components/data/toast';
import { failureMessage } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format-date';
import { describeSubscriptionStatus } from '../subscription-format';
import {
  subscriptionMessages,
  useSetSandboxCardMutation,
  useSimulateRenewalMutation,
} from '../subscriptions-endpoints';

type Card = 'succeeds' | 'declines';

const CARD_LABELS: Record<Card, MessageDescriptor> = {
  succeeds: msg`Pays (test card •••• 4242)`,
  declines: msg`Declines`,
};

/** What a simulated step did, in a sentence. */
function outcome(before: Subscription, after: Subscription): string {
  const planName = after.plan.name;
  if (after.status === 'cancelled') return t`${planName} has ended.`;
  if (after.status === 'suspended') return t`The grace period ended: the license is suspended.`;
  if (after.status === 'past_due') return t`The renewal charge was declined: the subscription is past due.`;
  if (before.status !== 'active') return t`The charge went through: the subscription is active again.`;
  if (!after.current_period_end) return t`Renewed.`;
  const paidUntil = formatDate(after.current_period_end);
  return t`Renewed: paid until ${paidUntil}.`;
}

const activeAgain = (planName: string) => t`${planName} is active again.`;

/**
 * The sandbox's controls, on sandbox subscriptions only: whether the card on file pays, and the
 * next renewal (or retry, or end of grace) brought forward to now, so the whole cycle can be shown
 * in minutes. Nothing here moves money.
 */
export function SandboxControls({ subscription }: { subscription: Subscription }) {
  const { i18n } = useLingui();
  const [setCard, cardCall] = useSetSandboxCardMutation();
  const [simulate, simulateCall] = useSimulateRenewalMutation();
  const [pendingCard, setPendingCard] = useState<Card | null>(null);
  const card = pendingCard ?? subscription.sandbox_card ?? 'succeeds';
  // The choice shows until the refreshed subscription carries it (or the change was refused).
  useEffect(() => setPendingCard(null), [subscription.sandbox_card]);
  const legendId = `sandbox-controls-${subscription.id}`;

  const chooseCard = async (next: Card) => {
    setPendingCard(next);
    try {
      const after = await setCard({ id: subscription.id, card: next }).unwrap();
      if (subscription.status !== 'active' && after.status === 'active')
        showToast({ title: t`Payment received`, message: activeAgain(after.plan.name) });
    } catch (error) {
      setPendingCard(null);
      notifications.show({
        color: 'red',
        title: t`The card was not changed`,
        message: failureMessage(error, subscriptionMessages.paymentMethodFailed),
      });
    }
  };

  const renew = async () => {
    try {
      const after = await simulate(subscription.id).unwrap();
      showToast({
        title: t`Simulated`,
        message: outcome(subscription, after),
        tone: describeSubscriptionStatus(after).tone === 'positive' ? 'success' : 'error',
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Nothing was simulated`,
        message: failureMessage(error, subscriptionMessages.sandboxRenewFailed),
      });
    }
  };

  return (
    <Stack
      component="section"
      aria-labelledby={legendId}
      gap="sm"
      p="md"
      style={{
        border: '1px dashed var(--mantine-color-orange-outline)',
        borderRadius: 'var(--mantine-radius-md)',
      }}
    >
      <Group gap="xs">
        <Text id={legendId} fw={600} size="sm">
          <Trans>Sandbox controls</Trans>
        </Text>
        <SandboxBadge />
      </Group>
      <Text size="xs" c="dimmed">
        <Trans>
          Test tools of the payment sandbox: no money moves. Real subscriptions renew on their own.
        </Trans>
      </Text>
      <Group gap="lg" align="flex-end" wrap="wrap">
        <Radio.Group
          label={t`Sandbox card`}
          value={card}
          onChange={(value) => void chooseCard(value as Card)}
          name={`sandbox-card-${subscription.id}`}
        >
          <Group gap="md" mt={6}>
            {(['succeeds', 'declines'] as const).map((value) => (
              <Radio
                key={value}
                value={value}
                label={i18n._(CARD_LABELS[value])}
                disabled={cardCall.isLoading || simulateCall.isLoading}
              />
            ))}
          </Group>
        </Radio.Group>
        <Button
          variant="default"
          size="sm"
          onClick={() => void renew()}
          loading={simulateCall.isLoading}
          disabled={cardCall.isLoading}
        >
          <Trans>Simulate next renewal</Trans>
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        <Trans>
          Simulate brings the next event forward to now: the renewal charge, a retry of a failed charge, the
          end of the grace period, the start or end of a pause, or the end of a canceled subscription.
        </Trans>
      </Text>
    </Stack>
  );
}
