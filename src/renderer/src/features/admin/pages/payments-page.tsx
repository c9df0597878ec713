import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Group, Text } from '@mantine/core';
import { type AdminPayment, PAYMENT_STATUSES } from '../../../../../shared/api/payments';
import type { Column } from '../../../components/data-table/data-table';
import { DateRangeFilter } from '../../../components/data-table/date-range-filter';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import {
  PAYMENT_STATUS_LABELS,
  PaymentStatusBadge,
  paymentStatusText,
  SandboxBadge,
} from '../../../components/data/payment-status-badge';
import { formatAmount } from '../../../lib/format-money';
import { adminApi, useListPaymentsQuery } from '../admin-endpoints';
import { PackageFilter } from '../payments/package-filter';
import { PaymentDrawer } from '../payments/payment-drawer';
import { paymentTime, providerLabel } from '../payments/payment-labels';
import { useDetailParam } from '../payments/use-detail-param';
import { pagedResult, pagesOf } from '../query-answer';
import { UserFilter } from '../security/user-filter';
import { csvAmount, type CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'status' | 'planId' | 'userId' | 'from' | 'to'> = {
  sortFields: ['created_at', 'amount', 'status'],
  defaultSort: '-created_at',
  filters: ['status', 'planId', 'userId', 'from', 'to'],
};

const STATUS_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Any status` },
  ...PAYMENT_STATUSES.map((status) => ({ value: status, label: PAYMENT_STATUS_LABELS[status].label })),
];

/** The payments list as a CSV file: amounts in the currency's major unit, times in ISO 8601 (UTC). */
const PAYMENTS_CSV: CsvColumn<AdminPayment>[] = [
  { header: 'Created', value: (payment) => payment.created_at },
  { header: 'Paid', value: (payment) => payment.paid_at },
  { header: 'Customer', value: (payment) => payment.user_email },
  { header: 'Plan', value: (payment) => payment.plan.name },
  { header: 'Kind', value: (payment) => payment.kind },
  { header: 'Status', value: (payment) => paymentStatusText(payment).label },
  { header: 'Amount', value: (payment) => csvAmount(payment.amount, payment.currency) },
  { header: 'Currency', value: (payment) => payment.currency },
  {
    header: 'Provider',
    value: (payment) => (payment.sandbox ? `${payment.provider} (sandbox)` : payment.provider),
  },
  { header: 'Order', value: (payment) => payment.order_id },
  { header: 'Provider payment', value: (payment) => payment.payment_id },
  { header: 'ID', value: (payment) => payment.id },
];

export default function AdminPaymentsPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const { query, setFilter } = list;
  const detail = useDetailParam('payment');
  const payments = pagedResult(useListPaymentsQuery(list.params));
  const [readPayments] = adminApi.endpoints.listPayments.useLazyQuery();

  const columns: Column<AdminPayment>[] = [
    {
      key: 'date',
      header: t`Date`,
      sortField: 'created_at',
      render: (payment) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={payment.created_at}>{paymentTime(payment.created_at)}</time>
        </Text>
      ),
    },
    {
      key: 'user',
      header: t`User`,
      render: (payment) =>
        payment.user_email ?? (
          <Text span size="sm" c="dimmed">
            <Trans>Deleted account</Trans>
          </Text>
        ),
    },
    { key: 'plan', header: t`Package`, render: (payment) => payment.plan.name },
    {
      key: 'amount',
      header: t`Amount`,
      sortField: 'amount',
      align: 'right',
      render: (payment) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
          {formatAmount(payment.amount, payment.currency)}{' '}
          <Text span size="xs" c="dimmed">
            {payment.currency}
          </Text>
        </Text>
      ),
    },
    {
      key: 'status',
      header: t`Status`,
      sortField: 'status',
      // Badges keep their words: the column is as wide as its longest badge, never "PA…".
      render: (payment) => (
        <Box style={{ minWidth: 'max-content' }}>
          <PaymentStatusBadge payment={{ ...payment, sandbox: false }} />
        </Box>
      ),
    },
    {
      key: 'provider',
      header: t`Provider`,
      render: (payment) => (
        <Group gap={6} wrap="nowrap" style={{ minWidth: 'max-content' }}>
          {payment.provider !== 'sandbox' ? (
            <Text span size="sm">
              {providerLabel(payment.provider)}
            </Text>
          ) : null}
          {payment.sandbox ? <SandboxBadge /> : null}
        </Group>
      ),
    },
    {
      key: 'details',
      header: t`Details`,
      card: 'actions',
      render: (payment) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(payment.id)}
          aria-label={t`View payment ${ph({ orderId: payment.order_id })}`}
        >
          <Trans>View</Trans>
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Payments`}
      description={t`Every checkout: who paid what for which package, how it went, and the license it granted.`}
      list={list}
      result={payments}
      noun={t`payments`}
      searchPlaceholder={t`E-mail, order or payment id`}
      filters={
        <>
          <FilterSelect
            list={list}
            filter="status"
            label={t`Status`}
            data={optionsIn(i18n, STATUS_OPTIONS)}
            style={{ flex: '1 1 150px' }}
          />
          <PackageFilter value={query.filters.planId} onChange={(planId) => setFilter('planId', planId)} />
          <UserFilter value={query.filters.userId} onChange={(userId) => setFilter('userId', userId)} />
          <DateRangeFilter from={query.filters.from} to={query.filters.to} onChange={list.setFilters} />
        </>
      }
      note={
        query.filters.from || query.filters.to ? (
          <Text size="xs" c="dimmed" mt={-8}>
            <Trans>Dates are whole days in UTC.</Trans>
          </Text>
        ) : null
      }
      noMatchesHint={t`Check the spelling of the e-mail or order id, widen the dates, or clear the filters.`}
      empty={{
        title: t`No payments yet`,
        text: t`Payments appear here as soon as a customer opens a checkout on the Purchase page.`,
      }}
      csv={{ name: 'payments', columns: PAYMENTS_CSV, fetchPage: pagesOf(readPayments, list.params) }}
      table={{
        columns,
        rowKey: (payment) => payment.id,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    >
      <PaymentDrawer
        id={detail.id}
        known={payments.page?.data.find((payment) => payment.id === detail.id)}
        onClose={detail.close}
      />
    </ListPage>
  );
}
