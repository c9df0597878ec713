import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
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

const perSeat = (price: string) => t`${price} per seat`;
const trialRuns = (end: string) => t`Your free trial runs until ${end}. You won’t be charged until then;`;
const chargedFor = (charged: string, planName: string) => t`${charged} for ${planName};`;
const renewedText = (price: string) => t`${price}, renewed automatically until you cancel.`;
const firstOrNextCharge = (first: boolean, amount: string, date: string) =>
  first ? t`First charge: ${amount} on ${date}.` : t`Next charge: ${amount} on ${date}.`;

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
    : organisation
      ? perSeat(formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval))
      : formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval);
  const planName = plan.name;
  const organisationName = organisation?.name;
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
                ? t`Trial started: your ${planName} license is ready`
                : t`Subscribed: your ${planName} license is ready`}
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed" data-testid="subscription-charged">
                {trialEndsAt ? trialRuns(formatDate(trialEndsAt)) + ' ' : ''}
                {charge ? chargedFor(chargedTodayText(charge), planName) + ' ' : ''}
                {renewedText(recurringPrice)}
                {!charge && subscription.next_charge
                  ? ' ' +
                    firstOrNextCharge(
                      !!trialEndsAt,
                      formatMoney(subscription.next_charge.amount_minor, subscription.next_charge.currency),
                      formatDate(subscription.next_charge.at),
                    )
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
              <Trans>
                The license belongs to {organisationName}, and you hold one of its seats. Use it on this
                machine by activating it here (no key to type), then give the other seats to members on the
                organization’s page.
              </Trans>
            </Text>
            <ActivateOnThisMachine license={license} option={{ kind: 'available' }} />
          </Stack>
        ) : (
          <Stack gap={4}>
            <Text size="xs" c="dimmed" fw={500} tt="uppercase" lts={0.4}>
              <Trans>License key</Trans>
            </Text>
            <LicenseKeyCopy licenseKey={license.license_key} />
            <Text size="sm">
              {expiryText(license)}. <Trans>Activate it in the desktop app or on the license’s page.</Trans>
            </Text>
          </Stack>
        )}

        <Group gap="sm">
          <Button component={Link} to={portalPaths.subscriptions}>
            <Trans>Manage subscription</Trans>
          </Button>
          <Button
            component={Link}
            to={pathWith(portalPaths.licenseDetail, { licenseId: license.license_id })}
            variant="default"
          >
            <Trans>View license</Trans>
          </Button>
          <Button variant="subtle" onClick={onDone}>
            <Trans>Done</Trans>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
