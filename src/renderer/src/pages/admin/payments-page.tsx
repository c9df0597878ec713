import { Box, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { type AdminPayment, PAYMENT_STATUSES } from '../../../../shared/api/payments';
import { AdminPage } from '../../components/admin/admin-page';
import { type Column, DataTable } from '../../components/admin/data-table';
import { ListFooter } from '../../components/admin/list-pagination';
import { NoMatches } from '../../components/admin/no-matches';
import { ListToolbar } from '../../components/admin/list-toolbar';
import { formatAmount, PAYMENT_STATUS_LABELS } from '../../components/payments/payment-format';
import { PaymentStatusBadge, SandboxBadge } from '../../components/payments/payment-status-badge';
import { fetchPayments } from '../../features/admin/admin-slice';
import { type ListQuerySpec, useListQuery } from '../../features/admin/list-query';
import { PackageFilter } from '../../features/admin/payments/package-filter';
import { PaymentDrawer } from '../../features/admin/payments/payment-drawer';
import { PROVIDER_LABELS, paymentTime } from '../../features/admin/payments/payment-labels';
import { useClampedPage } from '../../features/admin/use-clamped-page';
import { useDetailParam } from '../../features/admin/payments/use-detail-param';
import { DateRangeFilter } from '../../components/admin/date-range-filter';
import { UserFilter } from '../../features/admin/security/user-filter';
import { useListThunk, usePagedList } from '../../features/admin/use-paged-list';

const LIST: ListQuerySpec<'status' | 'planId' | 'userId' | 'from' | 'to'> = {
  sortFields: ['created_at', 'amount', 'status'],
  defaultSort: '-created_at',
  filters: ['status', 'planId', 'userId', 'from', 'to'],
};

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...PAYMENT_STATUSES.map((status) => ({ value: status, label: PAYMENT_STATUS_LABELS[status].label })),
];

export default function AdminPaymentsPage() {
  const list = useListQuery(LIST);
  const { query, setFilter } = list;
  const detail = useDetailParam('payment');
  const payments = usePagedList(useListThunk(fetchPayments), list.params);
  useClampedPage(payments.page, query.page, list.clampPage);

  const filtered = query.search !== '' || Object.values(query.filters).some((value) => value !== '');

  const columns: Column<AdminPayment>[] = [
    {
      key: 'date',
      header: 'Date',
      sortField: 'created_at',
      render: (payment) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={payment.created_at}>{paymentTime(payment.created_at)}</time>
        </Text>
      ),
    },
    {
      key: 'user',
      header: 'User',
      render: (payment) =>
        payment.user_email ?? (
          <Text span size="sm" c="dimmed">
            Deleted account
          </Text>
        ),
    },
    { key: 'plan', header: 'Package', render: (payment) => payment.plan.name },
    {
      key: 'amount',
      header: 'Amount',
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
      header: 'Status',
      sortField: 'status',
      // Badges keep their words: the column is as wide as its longest badge, never "PA…".
      render: (payment) => (
        <Box style={{ minWidth: 'max-content' }}>
          <PaymentStatusBadge payment={{ status: payment.status, sandbox: false }} />
        </Box>
      ),
    },
    {
      key: 'provider',
      header: 'Provider',
      render: (payment) => (
        <Group gap={6} wrap="nowrap" style={{ minWidth: 'max-content' }}>
          {payment.provider !== 'sandbox' ? (
            <Text span size="sm">
              {PROVIDER_LABELS[payment.provider]}
            </Text>
          ) : null}
          {payment.sandbox ? <SandboxBadge /> : null}
        </Group>
      ),
    },
    {
      key: 'details',
      header: 'Details',
      render: (payment) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(payment.id)}
          aria-label={`View payment ${payment.order_id}`}
        >
          View
        </Button>
      ),
    },
  ];

  return (
    <AdminPage
      title="Payments"
      description="Every checkout: who paid what for which package, how it went, and the license it granted."
    >
      <ListToolbar
        searchLabel="Search payments"
        searchPlaceholder="E-mail, order or payment id"
        search={query.search}
        onSearch={list.setSearch}
        filtered={filtered}
        onReset={list.reset}
      >
        <NativeSelect
          size="md"
          label="Status"
          data={STATUS_OPTIONS}
          value={query.filters.status}
          onChange={(event) => setFilter('status', event.currentTarget.value)}
          style={{ flex: '1 1 150px' }}
        />
        <PackageFilter value={query.filters.planId} onChange={(planId) => setFilter('planId', planId)} />
        <UserFilter value={query.filters.userId} onChange={(userId) => setFilter('userId', userId)} />
        <DateRangeFilter from={query.filters.from} to={query.filters.to} onChange={list.setFilters} />
      </ListToolbar>

      {query.filters.from || query.filters.to ? (
        <Text size="xs" c="dimmed" mt={-8}>
          Dates are whole days in UTC.
        </Text>
      ) : null}

      <DataTable
        label="Payments"
        columns={columns}
        rows={payments.page?.data ?? null}
        rowKey={(payment) => payment.id}
        loading={payments.loading}
        error={payments.error}
        onRetry={payments.reload}
        sort={query.sort}
        onSort={list.setSort}
        skeletonRows={Math.min(query.perPage, 10)}
        empty={
          filtered ? (
            <Stack align="center" gap="xs">
              <NoMatches
                noun="payments"
                hint="Check the spelling of the e-mail or order id, widen the dates, or clear the filters."
                onClear={list.reset}
              />
            </Stack>
          ) : (
            <Stack align="center" gap="xs">
              <Text fw={600}>No payments yet</Text>
              <Text size="sm" c="dimmed">
                Payments appear here as soon as a customer opens a checkout on the Purchase page.
              </Text>
            </Stack>
          )
        }
      />

      <ListFooter noun="payments" result={payments.page} query={query} list={list} />

      <PaymentDrawer
        id={detail.id}
        known={payments.page?.data.find((payment) => payment.id === detail.id)}
        onClose={detail.close}
      />
    </AdminPage>
  );
}
