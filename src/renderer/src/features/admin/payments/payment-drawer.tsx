import {
  Alert,
  Anchor,
  Button,
  Code,
  CopyButton,
  DataList,
  Drawer,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminLicense } from '../../../../../shared/api/admin';
import type { AdminPayment } from '../../../../../shared/api/payments';
import { adminMessages } from '../../../../../shared/messages';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { useAppDispatch } from '../../../app/hooks';
import { AlertIcon, CheckIcon, CrossIcon } from '../../../components/brand/icons';
import { LicenseStatusBadge } from '../../../components/licenses/license-status-badge';
import { formatAmount } from '../../../components/payments/payment-format';
import { PaymentStatusBadge } from '../../../components/payments/payment-status-badge';
import { adminPaths } from '../admin-paths';
import { fetchPayment } from '../admin-thunks';
import { adminRead } from '../security/admin-read';
import { PROVIDER_LABELS, paymentSteps, paymentTime } from './payment-labels';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{children}</DataList.ItemValue>
    </DataList.Item>
  );
}

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

const none = (
  <Text span c="dimmed" size="sm">
    —
  </Text>
);

/** The licence a payment granted, with a way to it in the licences console. */
function GrantedLicense({ licenseId }: { licenseId: string }) {
  const [state, setState] = useState<{ license?: AdminLicense; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    adminRead<AdminLicense>(
      pathWith(adminPaths.license, { id: licenseId }),
      undefined,
      adminMessages.fetchLicenseFailed,
    ).then(
      (license) => live && setState({ license }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [licenseId]);

  if (state.error)
    return (
      <Text size="sm" c="dimmed">
        License {licenseId} could not be loaded: {state.error}
      </Text>
    );
  if (!state.license) return <Skeleton height={48} aria-label="Loading the license" />;
  const { license } = state;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" gap="sm">
          <Code fz="sm" style={{ overflowWrap: 'anywhere' }} data-testid="granted-license-key">
            {license.license_key}
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

/** One payment: amounts, provider ids, how it went (and why it failed), the licence it granted. */
export function PaymentDrawer({ id, known, onClose }: PaymentDrawerProps) {
  const dispatch = useAppDispatch();
  const phone = useMediaQuery('(max-width: 40em)');
  const [loaded, setLoaded] = useState<{ id: string; payment?: AdminPayment; error?: string } | null>(null);

  useEffect(() => {
    if (!id) return;
    let live = true;
    dispatch(fetchPayment(id))
      .unwrap()
      .then(
        (payment) => live && setLoaded({ id, payment }),
        (error: unknown) =>
          live && setLoaded({ id, error: typeof error === 'string' ? error : String(error) }),
      );
    return () => {
      live = false;
    };
  }, [id, dispatch]);

  const fresh = loaded?.id === id ? loaded : null;
  const payment = fresh?.payment ?? known;
  const error = !payment ? fresh?.error : undefined;

  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title="Payment details"
      closeButtonProps={{ 'aria-label': 'Close payment details' }}
      // A wide table inside scrolls in its own box; it must not widen the drawer past the screen.
      styles={{ content: { minWidth: 0 } }}
    >
      {error ? (
        <Alert color="red" icon={<AlertIcon />} title={error} role="alert">
          The payment could not be loaded. The link may be wrong, or the payment was removed.
        </Alert>
      ) : !payment ? (
        <Stack gap="sm" aria-busy="true" aria-label="Loading the payment">
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={16} />
          ))}
        </Stack>
      ) : (
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
        </Stack>
      )}
    </Drawer>
  );
}
