import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { SubscriptionActivation } from '../../../../../shared/api/subscriptions';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { CheckIcon } from '../../../components/brand/icons';
import { SandboxBadge } from '../../../components/data/payment-status-badge';
import { formatDate } from '../../../lib/format-date';
import { formatMoney } from '../../../lib/format-money';
import { ActivateOnThisMachine, expiryText } from '../../licenses';
import { ChargeLines, chargedTodayText, formatRecurringPrice } from '../../subscriptions';
import { LicenseKeyCopy } from './license-key-copy';

/**
 * After a subscription's first payment: what was charged today (with the coupon, seats and tax, as
 * the invoice says) and what is charged next, the license it issued, and the way to the
 * Subscriptions page. A personal license shows its key; an organization's is used on the owner's
 * seat by signing in (its key is refused), so it offers "Activate on this machine" instead. Takes
 * the focus so screen readers announce it.
 */
export function SubscriptionSuccess({
  activation,
  sandbox,
  onDone,
}: {
  activation: SubscriptionActivation;
  sandbox: boolean;
  onDone(): void;
}) {
  const { subscription, license, charge } = activation;
  const { plan } = subscription;
  // A card trial started: nothing charged yet, the first charge at the trial's end.
  const trialEndsAt = charge ? null : subscription.trial_ends_at;
  const { organisation } = license;
  // What each renewal charges: the next charge as the server worked it out (seats, a coupon that
  // recurs), else the plan's price a seat.
  const recurringPrice = charge?.next_charge
    ? formatRecurringPrice(charge.next_charge.amount_minor, plan.currency, plan.billing_interval)
    : `${formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval)}${organisation ? ' per seat' : ''}`;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  return (
    <Card withBorder padding="xl" component="section" aria-labelledby="subscription-success-title">
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={44} radius="xl" color="teal" variant="light" aria-hidden="true">
            <CheckIcon size={24} />
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={2} size="h3" id="subscription-success-title" ref={heading} tabIndex={-1}>
              {trialEndsAt
                ? `Trial started: your ${plan.name} license is ready`
                : `Subscribed: your ${plan.name} license is ready`}
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed" data-testid="subscription-charged">
                {trialEndsAt
                  ? `Your free trial runs until ${formatDate(trialEndsAt)}. You won’t be charged until then; `
                  : ''}
                {charge ? `${chargedTodayText(charge)} for ${plan.name}; ` : ''}
                {recurringPrice}, renewed automatically until you cancel.
                {!charge && subscription.next_charge
                  ? ` ${trialEndsAt ? 'First' : 'Next'} charge: ${formatMoney(subscription.next_charge.amount_minor, subscription.next_charge.currency)} on ${formatDate(subscription.next_charge.at)}.`
                  : ''}
              </Text>
              {sandbox ? <SandboxBadge /> : null}
            </Group>
          </Stack>
        </Group>

        {charge ? <ChargeLines charge={charge} /> : null}

        {organisation ? (
          <Stack gap="xs" data-testid="organisation-seat">
            <Text size="sm">
              The license belongs to {organisation.name}, and you hold one of its seats. Use it on this
              machine by activating it here (no key to type), then give the other seats to members on the
              organization’s page.
            </Text>
            <ActivateOnThisMachine license={license} option={{ kind: 'available' }} />
          </Stack>
        ) : (
          <Stack gap={4}>
            <Text size="xs" c="dimmed" fw={500} tt="uppercase" lts={0.4}>
              License key
            </Text>
            <LicenseKeyCopy licenseKey={license.license_key} />
            <Text size="sm">
              {expiryText(license)}. Activate it in the desktop app or on the license’s page.
            </Text>
          </Stack>
        )}

        <Group gap="sm">
          <Button component={Link} to={portalPaths.subscriptions}>
            Manage subscription
          </Button>
          <Button
            component={Link}
            to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
            variant="default"
          >
            View license
          </Button>
          <Button variant="subtle" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
