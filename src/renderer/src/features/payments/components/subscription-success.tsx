import { Button, Card, Code, CopyButton, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { SubscriptionActivation } from '../../../../../shared/api/subscriptions';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { CheckIcon } from '../../../components/brand/icons';
import { formatMoney, formatRecurringPrice } from '../../subscriptions';
import { formatDate } from './payment-format';
import { SandboxBadge } from './payment-status-badge';
import { LicenseKeyText } from '../../../components/data/license-key-text';

/**
 * After a subscription's first payment: what was started (plan, price, next charge), the license
 * it issued with its key, and the way to the Subscriptions page. Takes the focus so screen readers
 * announce it.
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
  const { subscription, license } = activation;
  const { plan } = subscription;
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
              Subscribed: your {plan.name} license is ready
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {formatRecurringPrice(plan.price_minor, plan.currency, plan.billing_interval)}, renewed
                automatically until you cancel.
                {subscription.next_charge
                  ? ` Next charge: ${formatMoney(subscription.next_charge.amount_minor, subscription.next_charge.currency)} on ${formatDate(subscription.next_charge.at)}.`
                  : ''}
              </Text>
              {sandbox ? <SandboxBadge /> : null}
            </Group>
          </Stack>
        </Group>

        <Stack gap={4}>
          <Text size="xs" c="dimmed" fw={500} tt="uppercase" lts={0.4}>
            License key
          </Text>
          <Group gap="xs" wrap="wrap">
            <Code fz="sm" data-testid="purchased-license-key">
              <LicenseKeyText value={license.license_key} />
            </Code>
            <CopyButton value={license.license_key}>
              {({ copied, copy }) => (
                <Button variant="light" size="compact-sm" onClick={copy} aria-label="Copy the license key">
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="sm">
            Valid until {license.expires_at ? formatDate(license.expires_at) : 'further notice'}, and extended
            with each renewal. Activate it in the desktop app or on the license’s page.
          </Text>
        </Stack>

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
