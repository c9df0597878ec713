import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  DataList,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { Link } from 'react-router-dom';
import type { AdminPayment } from '../../../../../shared/api/payments';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, CheckIcon, CrossIcon } from '../../../components/brand/icons';
import { PaymentStatusBadge } from '../../../components/data/payment-status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { formatAmount } from '../../../lib/format-money';
import { LicenseStatusBadge } from '../../licenses';
import { useGetLicenseSummaryQuery, useGetPaymentQuery } from '../admin-endpoints';
import { RefundsSection } from '../invoices/refunds-section';
import { failureOf } from '../query-answer';
import { PROVIDER_LABELS, paymentSteps, paymentTime } from './payment-labels';
import { LicenseKeyText } from '../../../components/data/license-key-text';

function CopyableId({ value, what }: { value: string; what: string }) {
  return (
    <Group gap={6} wrap="nowrap" align="center">
      <Code fz="xs" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={`Copy the ${what}`}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

const none = <NoValue />;

/** The license a payment granted, with a way to it in the licenses console. */
function GrantedLicense({ licenseId }: { licenseId: string }) {
  const answer = useGetLicenseSummaryQuery(licenseId);
  const error = failureOf(answer);
  const license = answer.currentData;
  if (error)
    return (
      <Text size="sm" c="dimmed">
        License {licenseId} could not be loaded: {error}
      </Text>
    );
  if (!license) return <Skeleton height={48} aria-label="Loading the license" />;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" gap="sm">
          <Code fz="sm" data-testid="granted-license-key">
            <LicenseKeyText value={license.license_key} />
          </Code>
          <LicenseStatusBadge status={license.status} size="md" />
        </Group>
        <Text size="sm" c="dimmed">
          {license.plan?.name ?? 'Plan'} · {license.max_activations} seat
          {license.max_activations === 1 ? '' : 's'}
          {license.expires_at ? ` · expires ${paymentTime(license.expires_at)}` : ' · no end date'}
        </Text>
        <Anchor
          component={Link}
          to={`${portalPaths.adminLicenses}?${new URLSearchParams({ search: license.license_key })}`}
          size="sm"
          fw={600}
        >
          Open the license in Licenses
        </Anchor>
      </Stack>
    </Paper>
  );
}

export interface PaymentDrawerProps {
  /** The payment id in the URL, or null when closed. */
  id: string | null;
  /** The list's row of it, shown at once while the full record loads. */
  known: AdminPayment | undefined;
  onClose: () => void;
}

/** One payment: amounts, provider ids, how it went (and why it failed), the license it granted. */
export function PaymentDrawer({ id, known, onClose }: PaymentDrawerProps) {
  // Through the slice: the payment becomes its selectedPayment.
  const answer = useGetPaymentQuery(id ?? skipToken);
  const payment = answer.currentData ?? known;
  const error = !payment ? failureOf(answer) : null;

  return (
    <DetailDrawer
      opened={id !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title="Payment details"
      closeLabel="Close payment details"
      error={error}
      errorHint="The payment could not be loaded. The link may be wrong, or the payment was removed."
      loading={!payment && 'Loading the payment'}
    >
      {payment && (
        <Stack gap="lg">
          <Stack gap={6}>
            <Text fz={28} fw={700} lh={1.2}>
              {formatAmount(payment.amount, payment.currency)}{' '}
              <Text span size="md" c="dimmed" fw={500}>
                {payment.currency}
              </Text>
            </Text>
            <Group gap="sm">
              <PaymentStatusBadge payment={payment} />
              <Text size="sm" c="dimmed">
                {payment.plan.name} · {payment.user_email ?? 'Deleted account'}
              </Text>
            </Group>
          </Stack>

          {payment.status === 'failed' ? (
            <Alert color="red" variant="light" icon={<AlertIcon />} title="Payment failed">
              {payment.failure_reason ?? 'The provider reported no reason.'}
            </Alert>
          ) : null}

          <DataList labelWidth={120} size="sm" withDivider>
            <Field label="Order id">
              <CopyableId value={payment.order_id} what="order id" />
            </Field>
            <Field label="Payment id">
              {payment.payment_id ? <CopyableId value={payment.payment_id} what="payment id" /> : none}
            </Field>
            <Field label="Amount">
              {formatAmount(payment.amount, payment.currency)} {payment.currency}
              <Text size="xs" c="dimmed">
                {payment.amount.toLocaleString()} in minor units
              </Text>
            </Field>
            <Field label="Provider">
              {PROVIDER_LABELS[payment.provider]}
              {payment.sandbox ? (
                <Text size="xs" c="dimmed">
                  Sandbox: no money moved.
                </Text>
              ) : null}
            </Field>
            <Field label="Package">
              {payment.plan.name}{' '}
              <Text span size="xs" c="dimmed">
                ({payment.plan.code})
              </Text>
            </Field>
            <Field label="Buyer">
              {payment.user_email ? (
                <Anchor
                  component={Link}
                  to={`${portalPaths.adminUsers}?${new URLSearchParams({ search: payment.user_email })}`}
                  size="sm"
                >
                  {payment.user_email}
                </Anchor>
              ) : (
                'Deleted account'
              )}
            </Field>
            <Field label="Created">{paymentTime(payment.created_at)}</Field>
            <Field label="Paid">{payment.paid_at ? paymentTime(payment.paid_at) : none}</Field>
            <Field label="Last change">{paymentTime(payment.updated_at)}</Field>
          </DataList>

          <Stack gap="sm" component="section" aria-labelledby="payment-history-title">
            <Title order={3} size="h5" id="payment-history-title">
              Status history
            </Title>
            <Timeline
              active={payment.status === 'created' ? 0 : 1}
              bulletSize={22}
              lineWidth={2}
              color={payment.status === 'failed' ? 'red' : 'teal'}
            >
              {paymentSteps(payment).map((step) => (
                <Timeline.Item
                  key={step.title}
                  title={step.title}
                  bullet={
                    step.tone === 'failed' ? (
                      <CrossIcon size={12} />
                    ) : step.tone === 'done' ? (
                      <CheckIcon size={12} />
                    ) : null
                  }
                >
                  {step.detail ? (
                    <Text size="sm" c="dimmed">
                      {step.detail}
                    </Text>
                  ) : null}
                  {step.at ? (
                    <Text size="xs" c="dimmed" mt={2}>
                      <time dateTime={step.at}>{paymentTime(step.at)}</time>
                    </Text>
                  ) : null}
                </Timeline.Item>
              ))}
            </Timeline>
          </Stack>

          <Stack gap="sm" component="section" aria-labelledby="payment-license-title">
            <Title order={3} size="h5" id="payment-license-title">
              License granted
            </Title>
            {payment.license_id ? (
              <GrantedLicense licenseId={payment.license_id} />
            ) : (
              <Text size="sm" c="dimmed">
                {payment.status === 'paid'
                  ? 'No license is linked to this payment.'
                  : 'None: a license is granted once the payment succeeds.'}
              </Text>
            )}
          </Stack>

          {payment.status === 'paid' ? <RefundsSection payment={payment} /> : null}
        </Stack>
      )}
    </DetailDrawer>
  );
}
