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
import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { Link } from 'react-router-dom';
import type { AdminPayment } from '../../../../../shared/api/payments';
import { portalPaths } from '../../../../../shared/routes';
import { AlertIcon, CheckIcon, CrossIcon } from '../../../components/brand/icons';
import { PaymentStatusBadge } from '../../../components/data/payment-status-badge';
import { DetailDrawer, DrawerField as Field, NoValue } from '../../../components/drawer/detail-drawer';
import { formatAmount } from '../../../lib/format-money';
import { numberFormat } from '../../../lib/number-format';
import { LicenseStatusBadge } from '../../licenses';
import { useGetLicenseSummaryQuery, useGetPaymentQuery } from '../admin-endpoints';
import { RefundsSection } from '../invoices/refunds-section';
import { failureOf } from '../query-answer';
import { paymentSteps, paymentTime, providerLabel } from './payment-labels';
import { LicenseKeyText } from '../../../components/data/license-key-text';

/** Copies an id; `label` names what is copied ("Copy the order id"). */
function CopyableId({ value, label }: { value: string; label: string }) {
  const { t } = useLingui();
  return (
    <Group gap={6} wrap="nowrap" align="center">
      <Code fz="xs" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Code>
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={label}>
            {copied ? t`Copied` : t`Copy`}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

const none = <NoValue />;

/** The license a payment granted, with a way to it in the licenses console. */
function GrantedLicense({ licenseId }: { licenseId: string }) {
  const { t } = useLingui();
  const answer = useGetLicenseSummaryQuery(licenseId);
  const error = failureOf(answer);
  const license = answer.currentData;
  if (error)
    return (
      <Text size="sm" c="dimmed">
        <Trans>
          License {licenseId} could not be loaded: {error}
        </Trans>
      </Text>
    );
  if (!license) return <Skeleton height={48} aria-label={t`Loading the license`} />;
  const planName = license.plan?.name ?? t`Plan`;
  const seats = license.max_activations;
  const expires = license.expires_at ? paymentTime(license.expires_at) : null;
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
          {expires
            ? t`${planName} · ${plural(seats, { one: '# seat', other: '# seats' })} · expires ${expires}`
            : t`${planName} · ${plural(seats, { one: '# seat', other: '# seats' })} · no end date`}
        </Text>
        <Anchor
          component={Link}
          to={`${portalPaths.adminLicenses}?${new URLSearchParams({ search: license.license_key })}`}
          size="sm"
          fw={600}
        >
          <Trans>Open the license in Licenses</Trans>
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** "49900 in minor units", the count written as the language shown writes numbers. */
function minorUnits(amount: number): string {
  const count = numberFormat().format(amount);
  return t`${count} in minor units`;
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
  const { t } = useLingui();
  const answer = useGetPaymentQuery(id ?? skipToken);
  const payment = answer.currentData ?? known;
  const error = !payment ? failureOf(answer) : null;

  return (
    <DetailDrawer
      opened={id !== null}
      onClose={onClose}
      size="lg"
      fullScreen="(max-width: 40em)"
      title={t`Payment details`}
      closeLabel={t`Close payment details`}
      error={error}
      errorHint={t`The payment could not be loaded. The link may be wrong, or the payment was removed.`}
      loading={!payment && t`Loading the payment`}
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
                {payment.plan.name} · {payment.user_email ?? t`Deleted account`}
              </Text>
            </Group>
          </Stack>

          {payment.status === 'failed' ? (
            <Alert color="red" variant="light" icon={<AlertIcon />} title={t`Payment failed`}>
              {payment.failure_reason ?? t`The provider reported no reason.`}
            </Alert>
          ) : null}

          <DataList labelWidth={120} size="sm" withDivider>
            <Field label={t`Order id`}>
              <CopyableId value={payment.order_id} label={t`Copy the order id`} />
            </Field>
            <Field label={t`Payment id`}>
              {payment.payment_id ? (
                <CopyableId value={payment.payment_id} label={t`Copy the payment id`} />
              ) : (
                none
              )}
            </Field>
            <Field label={t`Amount`}>
              {formatAmount(payment.amount, payment.currency)} {payment.currency}
              <Text size="xs" c="dimmed">
                {minorUnits(payment.amount)}
              </Text>
            </Field>
            <Field label={t`Provider`}>
              {providerLabel(payment.provider)}
              {payment.sandbox ? (
                <Text size="xs" c="dimmed">
                  <Trans>Sandbox: no money moved.</Trans>
                </Text>
              ) : null}
            </Field>
            <Field label={t`Package`}>
              {payment.plan.name}{' '}
              <Text span size="xs" c="dimmed">
                ({payment.plan.code})
              </Text>
            </Field>
            <Field label={t`Buyer`}>
              {payment.user_email ? (
                <Anchor
                  component={Link}
                  to={`${portalPaths.adminUsers}?${new URLSearchParams({ search: payment.user_email })}`}
                  size="sm"
                >
                  {payment.user_email}
                </Anchor>
              ) : (
                t`Deleted account`
              )}
            </Field>
            <Field label={t`Created`}>{paymentTime(payment.created_at)}</Field>
            <Field label={t`Paid`}>{payment.paid_at ? paymentTime(payment.paid_at) : none}</Field>
            <Field label={t`Last change`}>{paymentTime(payment.updated_at)}</Field>
          </DataList>

          <Stack gap="sm" component="section" aria-labelledby="payment-history-title">
            <Title order={3} size="h5" id="payment-history-title">
              <Trans>Status history</Trans>
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
              <Trans>License granted</Trans>
            </Title>
            {payment.license_id ? (
              <GrantedLicense licenseId={payment.license_id} />
            ) : (
              <Text size="sm" c="dimmed">
                {payment.status === 'paid'
                  ? t`No license is linked to this payment.`
                  : t`None: a license is granted once the payment succeeds.`}
              </Text>
            )}
          </Stack>

          {payment.status === 'paid' ? <RefundsSection payment={payment} /> : null}
        </Stack>
      )}
    </DetailDrawer>
  );
}
