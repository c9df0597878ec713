import { msg, ph, plural } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, Text } from '@mantine/core';
import type { AdminSubscription } from '../../../../../shared/api/admin-subscriptions';
import { SUBSCRIPTION_STATUSES } from '../../../../../shared/api/subscriptions';
import type { Column } from '../../../components/data-table/data-table';
import { DateRangeFilter } from '../../../components/data-table/date-range-filter';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { formatAmount } from '../../../lib/format-money';
import { PackageFilter } from '../payments/package-filter';
import { useDetailParam } from '../payments/use-detail-param';
import { pagedResult, pagesOf } from '../query-answer';
import { UserFilter } from '../security/user-filter';
import {
  adminSubscriptionsApi,
  useListAdminSubscriptionsQuery,
} from '../subscriptions/admin-subscriptions-endpoints';
import { SubscriptionDrawer } from '../subscriptions/subscription-drawer';
import {
  intervalLabel,
  periodDate,
  SUBSCRIPTION_STATUS_LABELS,
  SubscriptionStatusBadge,
} from '../subscriptions/subscription-labels';
import { csvAmount, type CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'status' | 'planId' | 'userId' | 'from' | 'to'> = {
  sortFields: ['created_at', 'current_period_end', 'status'],
  defaultSort: '-created_at',
  filters: ['status', 'planId', 'userId', 'from', 'to'],
};

const STATUS_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Any but unpaid` },
  ...SUBSCRIPTION_STATUSES.map((status) => ({
    value: status,
    label: SUBSCRIPTION_STATUS_LABELS[status].label,
  })),
];

const nowrap = { whiteSpace: 'nowrap' } as const;

/** The subscriptions list as a CSV file: amounts in the currency's major unit, times in ISO 8601 (UTC). */
const SUBSCRIPTIONS_CSV: CsvColumn<AdminSubscription>[] = [
  { header: 'Customer', value: (subscription) => subscription.user_email },
  { header: 'Plan', value: (subscription) => subscription.plan.name },
  { header: 'Seats', value: (subscription) => subscription.seats },
  { header: 'Organization', value: (subscription) => subscription.organisation?.name },
  { header: 'Billing', value: (subscription) => subscription.plan.billing_interval },
  { header: 'Status', value: (subscription) => subscription.status },
  {
    header: 'Cancels at period end',
    value: (subscription) => (subscription.cancel_at_period_end ? 'Yes' : 'No'),
  },
  { header: 'Period start', value: (subscription) => subscription.current_period_start },
  { header: 'Period end', value: (subscription) => subscription.current_period_end },
  { header: 'Next charge', value: (subscription) => subscription.next_charge?.at },
  {
    header: 'Next charge amount',
    value: (subscription) =>
      subscription.next_charge
        ? csvAmount(subscription.next_charge.amount_minor, subscription.next_charge.currency)
        : null,
  },
  {
    header: 'Currency',
    value: (subscription) => subscription.next_charge?.currency ?? subscription.plan.currency,
  },
  {
    header: 'Provider',
    value: (subscription) =>
      subscription.sandbox ? `${subscription.provider} (sandbox)` : subscription.provider,
  },
  { header: 'Provider subscription', value: (subscription) => subscription.provider_subscription_id },
  { header: 'ID', value: (subscription) => subscription.id },
];

/** `/admin/subscriptions`: every customer's subscriptions; the drawer shows charges, invoices and cancels. */
export default function AdminSubscriptionsPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const { query, setFilter } = list;
  const detail = useDetailParam('subscription');
  const subscriptions = pagedResult(useListAdminSubscriptionsQuery(list.params));
  const [readSubscriptions] = adminSubscriptionsApi.endpoints.listAdminSubscriptions.useLazyQuery();

  const seatCount = (seats: number) => plural(seats, { one: '# seat', other: '# seats' });

  const viewButton = (row: AdminSubscription) => (
    <Button
      size="xs"
      variant="light"
      onClick={() => detail.open(row.id)}
      aria-label={
        row.user_email
          ? t`View the subscription of ${ph({ customer: row.user_email })} to ${ph({ plan: row.plan.name })}`
          : t`View the subscription of a deleted account to ${ph({ plan: row.plan.name })}`
      }
    >
      <Trans>View</Trans>
    </Button>
  );

  const columns: Column<AdminSubscription>[] = [
    {
      key: 'customer',
      header: t`Customer`,
      render: (row) =>
        row.user_email ?? (
          <Text span size="sm" c="dimmed">
            <Trans>Deleted account</Trans>
          </Text>
        ),
    },
    {
      key: 'plan',
      header: t`Package`,
      render: (row) => (
        <>
          {row.plan.name}
          <Text size="xs" c="dimmed" style={nowrap}>
            {formatAmount(row.plan.price_minor, row.plan.currency)} {row.plan.currency} ·{' '}
            {intervalLabel(row.plan.billing_interval)}
          </Text>
        </>
      ),
    },
    {
      key: 'seats',
      header: t`Seats`,
      render: (row) => (
        <>
          {seatCount(row.seats)}
          {row.organisation ? (
            <Text size="xs" c="dimmed">
              {row.organisation.name}
            </Text>
          ) : null}
        </>
      ),
    },
    {
      key: 'status',
      header: t`Status`,
      sortField: 'status',
      render: (row) => (
        <Box style={{ minWidth: 'max-content' }}>
          <SubscriptionStatusBadge subscription={row} size="md" />
        </Box>
      ),
    },
    {
      key: 'period',
      header: t`Current period`,
      sortField: 'current_period_end',
      render: (row) =>
        row.current_period_start && row.current_period_end ? (
          // Two lines: the dates stay whole, and the column stays narrow on a phone.
          <>
            <Text size="sm" style={nowrap}>
              {periodDate(row.current_period_start)} –
            </Text>
            <Text size="sm" style={nowrap}>
              {periodDate(row.current_period_end)}
            </Text>
          </>
        ) : (
          <Text span size="sm" c="dimmed">
            <Trans>None</Trans>
          </Text>
        ),
    },
    {
      key: 'next',
      header: t`Next charge`,
      render: (row) =>
        row.next_charge ? (
          <>
            <Text span size="sm" style={nowrap}>
              {formatAmount(row.next_charge.amount_minor, row.next_charge.currency)}{' '}
              <Text span size="xs" c="dimmed">
                {row.next_charge.currency}
              </Text>
            </Text>
            <Text size="xs" c="dimmed" style={nowrap}>
              {periodDate(row.next_charge.at)}
            </Text>
          </>
        ) : (
          <Text span size="sm" c="dimmed">
            <Trans>None</Trans>
          </Text>
        ),
    },
    {
      key: 'details',
      header: t`Details`,
      card: 'actions',
      render: viewButton,
    },
  ];

  return (
    <ListPage
      title={t`Subscriptions`}
      description={t`Monthly and yearly plans customers pay for: where each stands, its next charge, its charges and invoices.`}
      list={list}
      result={subscriptions}
      noun={t`subscriptions`}
      searchPlaceholder={t`E-mail or subscription id`}
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
            <Trans>Dates are when the subscription was opened, whole days in UTC.</Trans>
          </Text>
        ) : null
      }
      noMatchesHint={t`Check the spelling of the e-mail or subscription id, widen the dates, or clear the filters.`}
      empty={{
        title: t`No subscriptions yet`,
        text: t`A subscription appears here once a customer pays for a monthly or yearly plan.`,
      }}
      csv={{
        name: 'subscriptions',
        columns: SUBSCRIPTIONS_CSV,
        fetchPage: pagesOf(readSubscriptions, list.params),
      }}
      table={{
        columns,
        rowKey: (row) => row.id,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    >
      <SubscriptionDrawer
        id={detail.id}
        known={subscriptions.page?.data.find((row) => row.id === detail.id)}
        onClose={detail.close}
      />
    </ListPage>
  );
}
