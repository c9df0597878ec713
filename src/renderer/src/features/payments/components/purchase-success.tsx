import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const paidText = (amount: string) => t`${amount} paid`;

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
  const { t } = useLingui();
  const planName = license.plan.name;
  const paidFor = payment.plan.name;
  const reference = paymentReference(payment);
  const used = license.activations_used;
  const max = license.max_activations;
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
              <Trans>Payment successful: your {planName} license is ready</Trans>
            </Title>
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {charge ? chargedTodayText(charge) : paidText(formatAmount(payment.amount, payment.currency))}{' '}
                <Trans>
                  for {paidFor}. Reference <Code fz="xs">{reference}</Code>
                </Trans>
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
          <Row label={t`License key`} wide>
            <LicenseKeyCopy licenseKey={license.license_key} />
          </Row>
          <Row label={t`Status`}>
            <Text size="sm" tt="capitalize">
              {license.status}
            </Text>
          </Row>
          <Row label={t`Validity`}>
            <Text size="sm">{expiryText(license)}</Text>
          </Row>
          <Row label={t`Machines`}>
            <Text size="sm">
              <Trans>
                {used} of {max} in use
              </Trans>
            </Text>
          </Row>
        </Box>

        <Text size="sm">
          <Trans>
            Activate it in the desktop app or on the license’s page to start using {planName} on this machine.
          </Trans>
        </Text>

        <Group gap="sm">
          <Button component={Link} to={licensePath}>
            <Trans>View license</Trans>
          </Button>
          <Button component={Link} to={portalPaths.licenses} variant="default">
            <Trans>All licenses</Trans>
          </Button>
          <Button variant="subtle" onClick={onDone}>
            <Trans>Done</Trans>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
