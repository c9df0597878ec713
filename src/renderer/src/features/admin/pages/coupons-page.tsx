import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Code, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import type { Coupon } from '../../../../../shared/api/coupons';
import type { Paged } from '../../../../../shared/api/paging';
import { BanIcon, PencilIcon, RefreshIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import type { Column } from '../../../components/data-table/data-table';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { formatDate } from '../../../lib/format-date';
import { useGetPaymentConfigQuery } from '../../payments';
import { useListAdminCouponsQuery, useUpdateAdminCouponMutation } from '../coupons/admin-coupons-endpoints';
import { CouponFormModal } from '../coupons/coupon-form-modal';
import { couponDiscount, couponState, durationText, redeemedOfLimit } from '../coupons/coupon-format';
import { errorText, failureOf } from '../query-answer';
import type { CsvColumn } from '../../../components/data-table/csv';

/** The coupons as a CSV file, as the list's search and filter select them. */
const COUPONS_CSV: CsvColumn<Coupon>[] = [
  { header: 'Code', value: (coupon) => coupon.code },
  { header: 'Description', value: (coupon) => coupon.description },
  { header: 'Discount', value: (coupon) => couponDiscount(coupon) },
  { header: 'Duration', value: (coupon) => durationText(coupon.duration).label },
  { header: 'Expires', value: (coupon) => coupon.expires_at },
  { header: 'Redeemed', value: (coupon) => coupon.redeemed_count },
  { header: 'Redemption limit', value: (coupon) => coupon.max_redemptions },
  { header: 'State', value: (coupon) => couponState(coupon).label },
  { header: 'Created', value: (coupon) => coupon.created_at },
  { header: 'ID', value: (coupon) => coupon.id },
];

type CouponFilter = 'state';

const LIST: ListQuerySpec<CouponFilter> = {
  sortFields: ['code', 'created_at', 'expires_at', 'redeemed_count'],
  defaultSort: '-created_at',
  filters: ['state'],
};

const STATE_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Any state` },
  { value: 'usable', label: msg`Not archived` },
  { value: 'archived', label: msg`Archived` },
];

const nowrap = { whiteSpace: 'nowrap' } as const;

const SORTS: Record<string, (a: Coupon, b: Coupon) => number> = {
  code: (a, b) => a.code.localeCompare(b.code),
  created_at: (a, b) => a.created_at.localeCompare(b.created_at),
  // No expiry sorts after every date.
  expires_at: (a, b) => (a.expires_at ?? '9999').localeCompare(b.expires_at ?? '9999'),
  redeemed_count: (a, b) => a.redeemed_count - b.redeemed_count,
};

/**
 * The coupons as the list frame shows a server page: the server answers them all at once (there
 * are few), so search, the filter, the sort and paging happen here, from the URL like other lists.
 */
function pageOf(
  coupons: Coupon[],
  query: ReturnType<typeof useListQuery<CouponFilter>>['query'],
): Paged<Coupon> {
  const search = query.search.trim().toLowerCase();
  const matching = coupons.filter(
    (coupon) =>
      (!search ||
        coupon.code.toLowerCase().includes(search) ||
        (coupon.description ?? '').toLowerCase().includes(search)) &&
      (query.filters.state === '' || (query.filters.state === 'archived') === coupon.archived),
  );
  const field = query.sort.replace(/^-/, '');
  const compare = SORTS[field];
  if (compare) matching.sort((a, b) => (query.sort.startsWith('-') ? -compare(a, b) : compare(a, b)));
  const start = (query.page - 1) * query.perPage;
  return {
    data: matching.slice(start, start + query.perPage),
    total: matching.length,
    page: query.page,
    perPage: query.perPage,
  };
}

/** `/admin/coupons`: the coupons customers type on Purchase; create, change, archive. */
export default function AdminCouponsPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const { query } = list;
  const answer = useListAdminCouponsQuery();
  const config = useGetPaymentConfigQuery();
  const page = useMemo(() => (answer.data ? pageOf(answer.data, query) : null), [answer.data, query]);
  const [updateCoupon] = useUpdateAdminCouponMutation();

  /** `null`: closed; `'new'`: creating; a coupon: editing it. */
  const [editing, setEditing] = useState<Coupon | 'new' | null>(null);
  const [archiving, setArchiving] = useState<Coupon | null>(null);
  const archivingCode = archiving?.code;
  const redeemed = archiving ? redeemedOfLimit(archiving) : '';

  const restore = async (coupon: Coupon) => {
    try {
      await updateCoupon({ id: coupon.id, changes: { archived: false } }).unwrap();
      notifications.show({
        color: 'teal',
        title: t`Coupon restored`,
        message: t`Customers can use ${ph({ code: coupon.code })} again.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: t`Could not restore ${ph({ code: coupon.code })}`,
        message: errorText(error),
      });
    }
  };

  const columns: Column<Coupon>[] = [
    {
      key: 'code',
      header: t`Code`,
      sortField: 'code',
      render: (coupon) => (
        <Stack gap={2}>
          <Code fz="sm" fw={600} style={nowrap}>
            {coupon.code}
          </Code>
          {coupon.description ? (
            <Text size="xs" c="dimmed" lineClamp={2} maw={280}>
              {coupon.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'discount',
      header: t`Discount`,
      render: (coupon) => (
        <Text span size="sm" style={nowrap}>
          {couponDiscount(coupon)}
        </Text>
      ),
    },
    {
      key: 'duration',
      header: t`Duration`,
      render: (coupon) => (
        <Text span size="sm" style={nowrap}>
          {durationText(coupon.duration).label}
        </Text>
      ),
    },
    {
      key: 'expires',
      header: t`Expires`,
      sortField: 'expires_at',
      render: (coupon) =>
        coupon.expires_at ? (
          <Text span size="sm" style={nowrap}>
            {formatDate(coupon.expires_at)}
          </Text>
        ) : (
          <Text span size="sm" c="dimmed">
            <Trans>Never</Trans>
          </Text>
        ),
    },
    {
      key: 'redeemed',
      header: t`Redeemed`,
      sortField: 'redeemed_count',
      align: 'right',
      render: (coupon) => <span style={nowrap}>{redeemedOfLimit(coupon)}</span>,
    },
    {
      key: 'state',
      header: t`State`,
      render: (coupon) => {
        const state = couponState(coupon);
        return (
          <StatusBadge tone={state.tone} size="md">
            {state.label}
          </StatusBadge>
        );
      },
    },
    {
      key: 'actions',
      header: t`Actions`,
      render: (coupon) => (
        <RowActions align="left">
          <RowAction
            label={t`Edit ${ph({ code: coupon.code })}`}
            tooltip={t`Edit`}
            icon={PencilIcon}
            onClick={() => setEditing(coupon)}
          />
          {coupon.archived ? (
            <RowAction
              label={t`Restore ${ph({ code: coupon.code })}`}
              tooltip={t`Restore`}
              icon={RefreshIcon}
              onClick={() => void restore(coupon)}
            />
          ) : (
            <RowAction
              label={t`Archive ${ph({ code: coupon.code })}`}
              tooltip={t`Archive`}
              icon={BanIcon}
              danger
              onClick={() => setArchiving(coupon)}
            />
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Coupons`}
      description={t`Codes customers type on the Purchase page: a percentage or an amount off the first charge or every charge.`}
      create={{ label: t`New coupon`, onClick: () => setEditing('new') }}
      list={list}
      result={{
        page,
        loading: answer.isFetching,
        error: failureOf(answer),
        reload: () => void answer.refetch(),
      }}
      noun={t`coupons`}
      searchPlaceholder={t`Code or description`}
      filters={
        <FilterSelect
          list={list}
          filter="state"
          label={t`State`}
          data={optionsIn(i18n, STATE_OPTIONS)}
          style={{ flex: '1 1 150px' }}
        />
      }
      noMatchesHint={t`Try another code, or clear the filters.`}
      empty={{
        title: t`No coupons yet`,
        text: t`Create a coupon; customers enter its code on the Purchase page.`,
      }}
      csv={
        answer.data
          ? {
              name: 'coupons',
              columns: COUPONS_CSV,
              // The coupons are all here already: the export pages through the filtered list in the page.
              fetchPage: (page, perPage) =>
                Promise.resolve(pageOf(answer.data ?? [], { ...query, page, perPage })),
            }
          : undefined
      }
      table={{ columns, rowKey: (coupon) => coupon.id, skeletonRows: Math.min(query.perPage, 5) }}
    >
      <CouponFormModal
        coupon={editing === 'new' ? null : editing}
        opened={editing !== null}
        currency={config.data?.currency ?? 'INR'}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />

      <ConfirmDialog
        centered
        opened={archiving !== null}
        title={archiving ? t`Archive coupon ${ph({ code: archiving.code })}?` : t`Archive coupon`}
        confirmLabel={t`Archive coupon`}
        failureTitle={t`Could not archive the coupon`}
        onClose={() => setArchiving(null)}
        onConfirm={async () => {
          if (!archiving) return;
          await updateCoupon({ id: archiving.id, changes: { archived: true } }).unwrap();
          notifications.show({
            color: 'teal',
            title: t`Coupon archived`,
            message: t`${ph({ code: archiving.code })} is no longer accepted.`,
          });
          setArchiving(null);
        }}
      >
        {archiving ? (
          <Text size="sm">
            <Trans>
              Customers can no longer use <Code fz="xs">{archivingCode}</Code>. Subscriptions that already
              have it keep their discount (redeemed so far: {redeemed}). You can restore it later.
            </Trans>
          </Text>
        ) : null}
      </ConfirmDialog>
    </ListPage>
  );
}
