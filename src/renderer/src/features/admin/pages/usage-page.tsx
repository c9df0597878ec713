import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text } from '@mantine/core';
import type { Column } from '../../../components/data-table/data-table';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import type { CsvColumn } from '../../../components/data-table/csv';
import plate from '../../../components/layout/heading-plate.module.css';
import { formatMoney } from '../../../lib/format-money';
import { formatNumber } from '../../licenses';
import { pagedResult, pagesOf } from '../query-answer';
import type { AdminUsageList } from '../../../../../shared/api/admin-usage';
import { type AdminUsageRow, adminUsageApi, useListAdminUsageQuery } from '../usage/admin-usage-endpoints';

type UsageFilter = 'period';

// The server's sort fields of GET /admin/usage (adminUsageQuerySchema); the heaviest use first.
const LIST: ListQuerySpec<UsageFilter> = {
  sortFields: ['used', 'over_allowance'],
  defaultSort: '-used',
  filters: ['period'],
};

const PERIOD_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`This month` },
  { value: 'previous', label: msg`Last month` },
];

const numeric = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** Who the use is of: the organisation's name, else the holder's e-mail. */
const customerOf = (row: AdminUsageRow) => row.organisation_name ?? row.email ?? row.license_id;

/** The usage list as a CSV file: one row per license and feature, amounts in the minor unit. */
const USAGE_CSV: CsvColumn<AdminUsageRow>[] = [
  { header: 'Customer', value: customerOf },
  { header: 'Holder e-mail', value: (row) => row.email },
  { header: 'Organization', value: (row) => row.organisation_name },
  { header: 'Plan', value: (row) => row.plan_name },
  { header: 'Feature', value: (row) => row.feature_key },
  { header: 'Used', value: (row) => row.used },
  { header: 'Allowance', value: (row) => row.allowance },
  { header: 'Over allowance', value: (row) => row.over_allowance },
  { header: 'Overage policy', value: (row) => row.overage_policy },
  { header: 'Overage accrued (minor units)', value: (row) => row.overage_accrued_minor },
  { header: 'Currency', value: (row) => row.currency },
  { header: 'License ID', value: (row) => row.license_id },
];

function useUsageColumns(): Column<AdminUsageRow>[] {
  const { t } = useLingui();
  const noOwner = t`no owner`;
  return [
    {
      key: 'customer',
      header: t`Customer`,
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {customerOf(row)}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {row.organisation_name ? t`Organization · ${ph({ owner: row.email ?? noOwner })}` : row.plan_name}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'feature',
      header: t`Feature`,
      render: (row) => (
        <Text size="sm">
          {row.feature_name}
          {row.period === 'day' ? (
            <Text span size="xs" c="dimmed">
              {' '}
              <Trans>· per day</Trans>
            </Text>
          ) : null}
        </Text>
      ),
    },
    {
      key: 'used',
      header: t`Used`,
      sortField: 'used',
      render: (row) => (
        <Text span size="sm" style={numeric}>
          {formatNumber(row.used)} {row.unit ?? t`units`}
        </Text>
      ),
    },
    {
      key: 'allowance',
      header: t`Allowance`,
      render: (row) => (
        <Text span size="sm" style={numeric}>
          {row.allowance === null ? t`Unlimited` : formatNumber(row.allowance)}
        </Text>
      ),
    },
    {
      key: 'over',
      header: t`Over allowance`,
      sortField: 'over_allowance',
      render: (row) => (
        <Text span size="sm" style={numeric} c={row.over_allowance > 0 ? undefined : 'dimmed'}>
          {formatNumber(row.over_allowance)}
          {row.over_allowance > 0 && row.overage_policy === 'stop' ? t` (not billed)` : ''}
        </Text>
      ),
    },
    {
      key: 'accrued',
      header: t`Overage accrued`,
      render: (row) => (
        <Text span size="sm" style={numeric} c={row.overage_accrued_minor > 0 ? undefined : 'dimmed'}>
          {formatMoney(row.overage_accrued_minor, row.currency)}
        </Text>
      ),
    },
  ];
}

/**
 * `/admin/usage`: metered use per customer and feature in this month or the last, from the usage
 * counters, heaviest first: the allowance, the units past it and what they have accrued at the
 * plan's overage price.
 */
/** The overage revenue of the month: what its renewals charged past the allowance, per currency. */
function OverageBilled({ billed, period }: { billed: AdminUsageList['overage_billed']; period: string }) {
  const { t } = useLingui();
  const amounts = billed.map((each) => formatMoney(each.amount_minor, each.currency)).join(' · ');
  const previous = period === 'previous';
  return (
    // On a plate: the dot grid would show between the small letters of this line.
    <Text size="sm" c={billed.length > 0 ? undefined : 'dimmed'} className={plate.plate}>
      {billed.length > 0
        ? previous
          ? t`Overage billed last month: ${amounts}`
          : t`Overage billed this month: ${amounts}`
        : previous
          ? t`No overage billed last month yet.`
          : t`No overage billed this month yet.`}
    </Text>
  );
}

export default function AdminUsagePage() {
  const { t, i18n } = useLingui();
  const columns = useUsageColumns();
  const list = useListQuery(LIST);
  const { query } = list;
  const answer = useListAdminUsageQuery(list.params);
  const usage = pagedResult(answer);
  const [readUsage] = adminUsageApi.endpoints.listAdminUsage.useLazyQuery();

  return (
    <ListPage
      title={t`Usage`}
      description={t`Metered AI use per customer and feature, the top consumers first, with the overage accrued at each plan’s price.`}
      list={list}
      result={usage}
      noun={t`usage rows`}
      searchPlaceholder={t`E-mail, organization or license ID`}
      filtered={list.filtered || query.sort !== LIST.defaultSort}
      filters={
        <FilterSelect
          list={list}
          filter="period"
          label={t`Period`}
          data={optionsIn(i18n, PERIOD_OPTIONS)}
          w={170}
        />
      }
      note={
        answer.data ? (
          <OverageBilled billed={answer.data.overage_billed} period={query.filters.period ?? ''} />
        ) : null
      }
      noMatchesHint={t`Check the spelling of the e-mail or name, or clear the search.`}
      empty={{
        title: t`No metered use in this period`,
        text: t`Use appears here once customers’ apps report usage of a metered feature.`,
      }}
      csv={{ name: 'usage', columns: USAGE_CSV, fetchPage: pagesOf(readUsage, list.params) }}
      table={{
        columns,
        rowKey: (row) => `${row.license_id}|${row.feature_id}`,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    />
  );
}
