import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Anchor,
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  NativeSelect,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Payment, PaymentStatus } from '../../../../../shared/api/payments';
import { PAYMENT_STATUSES } from '../../../../../shared/api/payments';
import { DEFAULT_PAGE_SIZE } from '../../../../../shared/constants';
import { pathWith, portalPaths } from '../../../../../shared/routes';
import { CardIcon } from '../../../components/brand/icons';
import { PAYMENT_STATUS_LABELS, PaymentStatusBadge } from '../../../components/data/payment-status-badge';
import { ErrorAlert } from '../../../components/forms/error-alert';
import { SectionCard } from '../../../components/layout/section-card';
import { failureMessage } from '../../../lib/api-errors';
import { formatDateTime } from '../../../lib/format-date';
import { formatAmount } from '../../../lib/format-money';
import { useAppDispatch } from '../../../lib/store-hooks';
import {
  paymentMessages,
  paymentsApi,
  useDismissPaymentMutation,
  useGetPaymentHistoryQuery,
} from '../payments-endpoints';
import { paymentReference } from './payment-format';

/** Asks the server for one payment's current status; the answer replaces the listed row. */
type CheckPayment = (id: string) => Promise<Payment>;

/** Starting a new checkout for the plan of an expired or failed order (the purchase page's checkout). */
export interface RetryOrder {
  retry(payment: Payment): void;
  /** A checkout is already under way: one at a time. */
  busy: boolean;
}

/** What a row can do besides show itself. */
interface RowActions {
  check: CheckPayment;
  retry: RetryOrder | undefined;
}

/** An order the buyer may try again or put away: expired or failed, and not a subscription's charge. */
const isClosedOrder = (payment: Payment) =>
  payment.kind === 'purchase' && (payment.status === 'expired' || payment.status === 'failed');

const STATUS_OPTIONS = PAYMENT_STATUSES.map((status) => ({
  value: status,
  label: PAYMENT_STATUS_LABELS[status].label,
}));
const COLUMNS: readonly { key: string; label: MessageDescriptor }[] = [
  { key: 'date', label: msg`Date` },
  { key: 'plan', label: msg`Plan` },
  { key: 'amount', label: msg`Amount` },
  { key: 'status', label: msg`Status` },
  { key: 'reference', label: msg`Reference` },
  { key: 'license', label: msg`License` },
];
const TABLE_MIN_WIDTH = 760;

function SkeletonRows({ rows }: { rows: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <Table.Tr key={row} aria-hidden="true">
      {COLUMNS.map((column) => (
        <Table.Td key={column.key}>
          <Skeleton height={14} width={column.key === 'reference' ? 150 : 80} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

function CheckStatusButton({ payment, check }: { payment: Payment; check: CheckPayment }) {
  const { t } = useLingui();
  const order = payment.order_id;
  const [checking, setChecking] = useState(false);
  const run = async () => {
    setChecking(true);
    try {
      const fresh = await check(payment.id);
      const statusWord = PAYMENT_STATUS_LABELS[fresh.status].label.toLowerCase();
      const planName = fresh.plan.name;
      notifications.show({
        color: fresh.status === 'paid' ? 'teal' : 'gray',
        title: t`Payment ${statusWord}`,
        message:
          fresh.status === 'created'
            ? t`This checkout was not completed, and nothing was charged for it. Buy the plan again to pay.`
            : fresh.status === 'expired'
              ? t`This checkout was not completed in time, and nothing was charged. Retry to buy the plan.`
              : t`The payment for ${planName} is ${statusWord}.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Could not check the payment`,
        message: error instanceof Error ? error.message : t`Try again in a moment.`,
      });
    } finally {
      setChecking(false);
    }
  };
  return (
    <Button
      variant="subtle"
      size="compact-xs"
      onClick={() => void run()}
      loading={checking}
      aria-label={t`Check the status of order ${order}`}
    >
      <Trans>Check status</Trans>
    </Button>
  );
}

function DismissButton({ payment }: { payment: Payment }) {
  const { t } = useLingui();
  const [dismiss, { isLoading }] = useDismissPaymentMutation();
  const planName = payment.plan.name;
  const order = payment.order_id;
  const run = async () => {
    try {
      await dismiss(payment.id).unwrap();
      notifications.show({
        color: 'gray',
        title: t`Order dismissed`,
        message: t`The ${planName} order no longer shows here. Nothing was charged for it.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Could not dismiss the order`,
        message: failureMessage(error, paymentMessages.dismissFailed),
      });
    }
  };
  return (
    <Button
      variant="subtle"
      color="gray"
      size="compact-xs"
      onClick={() => void run()}
      loading={isLoading}
      aria-label={t`Dismiss order ${order}`}
    >
      <Trans>Dismiss</Trans>
    </Button>
  );
}

/** Retry (a new checkout for the same plan) and Dismiss, under an expired or failed order. */
function ClosedOrderActions({ payment, retry }: { payment: Payment; retry: RetryOrder | undefined }) {
  const { t } = useLingui();
  const planName = payment.plan.name;
  return (
    <Group gap={4} wrap="nowrap">
      {retry ? (
        <Button
          variant="light"
          size="compact-xs"
          onClick={() => retry.retry(payment)}
          disabled={retry.busy}
          aria-label={t`Retry: buy ${planName} again`}
        >
          <Trans>Retry</Trans>
        </Button>
      ) : null}
      <DismissButton payment={payment} />
    </Group>
  );
}

/** Why the row reads as it does, under the status, for orders that did not go through. */
function StatusNote({ payment }: { payment: Payment }) {
  const { t } = useLingui();
  const note =
    payment.status === 'failed'
      ? payment.failure_reason
      : payment.status === 'expired'
        ? t`The checkout was not completed in time. Nothing was charged.`
        : null;
  return note ? (
    <Text size="xs" c="dimmed" maw={240}>
      {note}
    </Text>
  ) : null;
}

function PaymentRow({ payment, check, retry }: { payment: Payment } & RowActions) {
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(payment.paid_at ?? payment.created_at)}
      </Table.Td>
      <Table.Td>{payment.plan.name}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
        {formatAmount(payment.amount, payment.currency)}
      </Table.Td>
      <Table.Td>
        <Stack gap={2} align="flex-start">
          <PaymentStatusBadge payment={payment} />
          <StatusNote payment={payment} />
          {payment.status === 'created' ? <CheckStatusButton payment={payment} check={check} /> : null}
          {isClosedOrder(payment) ? <ClosedOrderActions payment={payment} retry={retry} /> : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Code fz="xs">{paymentReference(payment)}</Code>
      </Table.Td>
      <Table.Td>
        {payment.license_id ? (
          <LicenseLink licenseId={payment.license_id} />
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** The license a payment granted, on its own page. */
function LicenseLink({ licenseId }: { licenseId: string }) {
  return (
    <Anchor component={Link} to={pathWith(portalPaths.licenseDetail, { licenseId })} size="sm">
      <Trans>View license</Trans>
    </Anchor>
  );
}

function PaymentCard({ payment, check, retry }: { payment: Payment } & RowActions) {
  return (
    <Card withBorder padding="sm" radius="md" component="li">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="baseline">
          <Text fw={600} size="sm">
            {payment.plan.name}
          </Text>
          <Text fw={600} size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatAmount(payment.amount, payment.currency)}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {formatDateTime(payment.paid_at ?? payment.created_at)}
        </Text>
        <PaymentStatusBadge payment={payment} />
        <StatusNote payment={payment} />
        <Code fz="xs" style={{ overflowWrap: 'anywhere' }}>
          {paymentReference(payment)}
        </Code>
        <Group gap="sm">
          {payment.status === 'created' ? <CheckStatusButton payment={payment} check={check} /> : null}
          {isClosedOrder(payment) ? <ClosedOrderActions payment={payment} retry={retry} /> : null}
          {payment.license_id ? <LicenseLink licenseId={payment.license_id} /> : null}
        </Group>
      </Stack>
    </Card>
  );
}

const noPaymentsOf = (statusWord: string) => t`No ${statusWord} payments`;
/** "1–20 of 45 payments". */
const shownOf = (first: number, last: number, total: number) =>
  plural(total, { one: `${first}–${last} of # payment`, other: `${first}–${last} of # payments` });

/**
 * GET /payments/history on /purchase: status filter, pages, each payment's status and license;
 * an expired or failed order can be retried (with `retry`) or dismissed.
 */
export function PaymentHistory({
  perPage = DEFAULT_PAGE_SIZE,
  retry,
}: {
  perPage?: number;
  retry?: RetryOrder;
}) {
  const { t, i18n } = useLingui();
  const dispatch = useAppDispatch();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<PaymentStatus | null>(null);
  // The live record: read again on every visit rather than from the cache.
  const history = useGetPaymentHistoryQuery(
    { page, perPage, ...(status ? { status } : {}) },
    { refetchOnMountOrArgChange: true },
  );
  // Another page or filter shows skeletons, not the last answer; a refresh keeps it on screen.
  const data = history.currentData ?? null;
  const failed = history.isError && !history.isFetching;
  const refreshing = data !== null && history.isFetching;
  const reload = () => void history.refetch();
  const check = useCallback<CheckPayment>(
    (id) =>
      dispatch(
        paymentsApi.endpoints.getPaymentStatus.initiate(id, { subscribe: false, forceRefetch: true }),
      ).unwrap(),
    [dispatch],
  );

  const totalPages = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;
  const first = data && data.total > 0 ? (data.page - 1) * data.perPage + 1 : 0;
  const last = data ? first + data.data.length - Math.min(1, data.data.length) : 0;
  // A phone gets one card per payment instead of a table to scroll sideways.
  const phone = useMediaQuery('(max-width: 36em)');

  return (
    <SectionCard
      headingId="payment-history-title"
      title={t`Payment history`}
      description={t`Every checkout you started, newest first. Quote the reference when you contact support.`}
      actionsAlign="flex-end"
      actions={
        <Group gap="sm" align="flex-end" wrap="wrap">
          <NativeSelect
            label={t`Status`}
            size="sm"
            w={180}
            data={[{ value: '', label: t`All payments` }, ...STATUS_OPTIONS]}
            value={status ?? ''}
            onChange={(event) => {
              setStatus((event.currentTarget.value || null) as PaymentStatus | null);
              setPage(1);
            }}
          />
          <Button variant="default" size="sm" onClick={reload} loading={refreshing}>
            <Trans>Refresh</Trans>
          </Button>
        </Group>
      }
    >
      {failed ? (
        <ErrorAlert title={t`Payments could not be loaded`}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{failureMessage(history.error, paymentMessages.fetchHistoryFailed)}</Text>
            <Button size="xs" variant="white" color="red" onClick={reload}>
              <Trans>Try again</Trans>
            </Button>
          </Stack>
        </ErrorAlert>
      ) : data && data.total === 0 ? (
        <EmptyState
          icon={<CardIcon size={28} />}
          withIndicatorBackground
          title={
            status ? noPaymentsOf(PAYMENT_STATUS_LABELS[status].label.toLowerCase()) : t`No payments yet`
          }
          description={
            status
              ? t`Choose “All payments” to see the others.`
              : t`Buy a plan above: its payment and receipt reference show up here.`
          }
          py="lg"
        />
      ) : phone && data ? (
        <Stack
          component="ul"
          gap="sm"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={t`Your payments`}
          aria-busy={refreshing}
        >
          {data.data.map((payment) => (
            <PaymentCard key={payment.id} payment={payment} check={check} retry={retry} />
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={TABLE_MIN_WIDTH} type="native">
          <Table
            verticalSpacing="sm"
            highlightOnHover
            aria-busy={data === null || refreshing}
            aria-label={t`Your payments`}
          >
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column.key} scope="col">
                    {i18n._(column.label)}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data ? (
                data.data.map((payment) => (
                  <PaymentRow key={payment.id} payment={payment} check={check} retry={retry} />
                ))
              ) : (
                <SkeletonRows rows={3} />
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {data && data.total > 0 ? (
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {shownOf(first, last, data.total)}
          </Text>
          {totalPages > 1 ? (
            <nav aria-label={t`Payment history pages`}>
              <Pagination
                total={totalPages}
                value={page}
                onChange={setPage}
                size="sm"
                getItemProps={(item) => ({
                  'aria-label': t`Page ${item}`,
                  'aria-current': item === page ? 'page' : undefined,
                })}
                getControlProps={(control) => ({
                  'aria-label': {
                    first: t`First page`,
                    previous: t`Previous page`,
                    next: t`Next page`,
                    last: t`Last page`,
                  }[control],
                })}
              />
            </nav>
          ) : null}
        </Group>
      ) : null}
    </SectionCard>
  );
}
