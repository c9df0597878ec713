import { Box, Button, Card, Code, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { PaymentVerification } from '../../../../../shared/api/payments';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { CheckIcon } from '../../../components/brand/icons';
import { SandboxBadge } from '../../../components/data/payment-status-badge';
import { formatAmount } from '../../../lib/format-money';
import { expiryText } from '../../licenses';
import { ChargeLines, chargedTodayText } from '../../subscriptions';
import { paymentReference } from './payment-format';
import { LicenseKeyCopy } from './license-key-copy';

/** One term of the license's list: a `div` holding its `dt` and `dd`, as `<dl>` allows. */
function Row({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div style={wide ? { flexBasis: '100%' } : undefined}>
      <Text component="dt" size="xs" c="dimmed" fw={500} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Box component="dd" m={0} mt={2}>
        {children}
      </Box>
    </div>
  );
}

/**
 * After a verified payment: the license it granted (or extended), shown at once with its key and a
 * link to its page. Takes the keyboard focus so screen readers announce the outcome.
 */
export function PurchaseSuccess({
  verification,
  onDone,
}: {
  verification: PaymentVerification;
  onDone(): void;
}) {
  const { payment, license, charge } = verification;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const licensePath = pathWith(portalPaths.licenseDetail, { licenseId: license.license_id });

  return (
    <Card withBorder padding="xl" component="section" aria-labelledby="purchase-success-title">
      <Stack gap="lg">
        <Group gap="md" wrap="nowrap" align="flex-start">
          <ThemeIcon size={44} radius="xl" color="teal" variant="light" aria-hidden="true">
            <CheckIcon size={24} />
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={2} size="h3" id="purchase-success-title" ref={heading} tabIndex={-1}>
              Payment successful: your {license.plan.name} license is ready
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {charge ? chargedTodayText(charge) : `${formatAmount(payment.amount, payment.currency)} paid`}{' '}
                for {payment.plan.name}. Reference <Code fz="xs">{paymentReference(payment)}</Code>
              </Text>
              {verification.sandbox ? <SandboxBadge /> : null}
            </Group>
          </Stack>
        </Group>

        {charge ? <ChargeLines charge={charge} /> : null}

        <Box
          component="dl"
          m={0}
          style={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 'var(--mantine-spacing-md) var(--mantine-spacing-xl)',
          }}
          data-testid="purchased-license"
        >
          <Row label="License key" wide>
            <LicenseKeyCopy licenseKey={license.license_key} />
          </Row>
          <Row label="Status">
            <Text size="sm" tt="capitalize">
              {license.status}
            </Text>
          </Row>
          <Row label="Validity">
            <Text size="sm">{expiryText(license)}</Text>
          </Row>
          <Row label="Machines">
            <Text size="sm">
              {license.activations_used} of {license.max_activations} in use
            </Text>
          </Row>
        </Box>

        <Text size="sm">
          Activate it in the desktop app or on the license’s page to start using {license.plan.name} on this
          machine.
        </Text>

        <Group gap="sm">
          <Button component={Link} to={licensePath}>
            View license
          </Button>
          <Button component={Link} to={portalPaths.licenses} variant="default">
            All licenses
          </Button>
          <Button variant="subtle" onClick={onDone}>
            Done
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
