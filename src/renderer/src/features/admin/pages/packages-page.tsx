import { formatNumber } from '../../licenses';
import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { CreatePlanRequest, Plan } from '../../../../../shared/api/plans';
import { StatusBadge } from '../../../components/data/status-badge';
import type { Column } from '../../../components/data-table/data-table';
import { ListPage } from '../../../components/data-table/list-page';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import {
  formatPlanPrice,
  type PlanListParams,
  plansApi,
  useCreatePlanMutation,
  useListPlansQuery,
} from '../../plans';
import { PackageDetailsForm } from '../packages/package-details-form';
import { PackageDrawer } from '../packages/package-drawer';
import { machinesText, packageState } from '../packages/package-format';
import { useDetailParam } from '../payments/use-detail-param';
import { pagedResult, pagesOf } from '../query-answer';
import { csvAmount, type CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'status'> = {
  sortFields: ['sort_order', 'name', 'code', 'price_minor', 'created_at'],
  defaultSort: 'sort_order',
  filters: ['status'],
};

const STATUS_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`All packages` },
  { value: 'draft', label: msg`Draft` },
  { value: 'active', label: msg`Active` },
  { value: 'inactive', label: msg`Inactive` },
  { value: 'archived', label: msg`Archived` },
];

/** The packages list as a CSV file: prices in the currency's major unit. */
const PACKAGES_CSV: CsvColumn<Plan>[] = [
  { header: 'Name', value: (plan) => plan.name },
  { header: 'Code', value: (plan) => plan.code },
  { header: 'Price', value: (plan) => csvAmount(plan.price_minor, plan.currency) },
  { header: 'Currency', value: (plan) => plan.currency },
  { header: 'Billing', value: (plan) => plan.billing_interval },
  { header: 'Machines at once', value: (plan) => plan.max_activations },
  { header: 'Per seat', value: (plan) => (plan.seat_based ? 'Yes' : 'No') },
  { header: 'Features', value: (plan) => plan.features.map((feature) => feature.name).join('; ') },
  { header: 'Status', value: (plan) => packageState(plan).label },
  { header: 'Shown on the purchase page', value: (plan) => (plan.is_public ? 'Yes' : 'No') },
  { header: 'Display order', value: (plan) => plan.sort_order },
  { header: 'ID', value: (plan) => plan.id },
];

export default function AdminPackagesPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const { query } = list;
  const detail = useDetailParam('package');
  // Packages are the plans of the catalogue; they are not kept in the admin slice.
  const packages = pagedResult(useListPlansQuery(list.params as PlanListParams));
  const [readPackages] = plansApi.endpoints.listPlans.useLazyQuery();
  const [createPackage] = useCreatePlanMutation();
  const [creating, setCreating] = useState(false);

  const create = async (body: CreatePlanRequest) => {
    const plan = await createPackage(body).unwrap();
    notifications.show({
      color: 'teal',
      title: t`Package created`,
      message: t`${ph({ name: plan.name })} is a draft: choose its features and limits, then publish it to sell it.`,
    });
    setCreating(false);
    detail.open(plan.id);
  };

  const columns: Column<Plan>[] = [
    {
      key: 'name',
      header: t`Package`,
      sortField: 'name',
      render: (plan) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {plan.name}
          </Text>
          {plan.description ? (
            <Text size="xs" c="dimmed" lineClamp={1} maw={280}>
              {plan.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'code',
      header: t`Code`,
      sortField: 'code',
      render: (plan) => (
        <Code fz="xs" style={{ whiteSpace: 'nowrap' }}>
          {plan.code}
        </Code>
      ),
    },
    {
      key: 'price',
      header: t`Price`,
      sortField: 'price_minor',
      align: 'right',
      render: (plan) => {
        const price = formatPlanPrice(plan);
        return (
          <Stack gap={0} align="flex-end">
            <Text size="sm" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
              {price.amount}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {price.period}
            </Text>
          </Stack>
        );
      },
    },
    {
      key: 'machines',
      header: t`Machines`,
      align: 'right',
      render: (plan) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={machinesText(plan)}>
          {formatNumber(plan.max_activations)}
          {plan.seat_based ? t` per seat` : ''}
        </Text>
      ),
    },
    {
      key: 'features',
      header: t`Features`,
      align: 'right',
      render: (plan) => formatNumber(plan.features.length),
    },
    {
      key: 'status',
      header: t`Status`,
      render: (plan) => {
        const state = packageState(plan);
        return (
          <Group gap={6} wrap="nowrap" style={{ minWidth: 'max-content' }}>
            <StatusBadge tone={state.tone} size="md">
              {state.label}
            </StatusBadge>
            {!plan.is_public && !plan.archived_at ? (
              <StatusBadge tone="neutral" size="md">
                <Trans>Hidden</Trans>
              </StatusBadge>
            ) : null}
          </Group>
        );
      },
    },
    {
      key: 'order',
      header: t`Order`,
      sortField: 'sort_order',
      align: 'right',
      render: (plan) => plan.sort_order,
    },
    {
      key: 'manage',
      header: t`Manage`,
      card: 'actions',
      render: (plan) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(plan.id)}
          aria-label={t`Manage ${ph({ name: plan.name })}`}
        >
          <Trans>Manage</Trans>
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Packages`}
      description={t`What customers buy: price, machines, and the features and limits each package includes.`}
      create={{ label: t`New package`, onClick: () => setCreating(true) }}
      list={list}
      result={packages}
      noun={t`packages`}
      searchPlaceholder={t`Name, code or description`}
      filters={
        <FilterSelect
          list={list}
          filter="status"
          label={t`Status`}
          data={optionsIn(i18n, STATUS_OPTIONS)}
          style={{ flex: '1 1 150px' }}
        />
      }
      noMatchesHint={t`Try another name or code, or clear the filters.`}
      empty={{
        title: t`No packages yet`,
        text: t`Create a package, choose the features it includes and publish it. Customers then see it on the Purchase page.`,
      }}
      csv={{
        name: 'packages',
        columns: PACKAGES_CSV,
        fetchPage: pagesOf(readPackages, list.params as PlanListParams),
      }}
      table={{
        columns,
        rowKey: (plan) => plan.id,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    >
      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title={t`New package`}
        size="lg"
        closeButtonProps={{ 'aria-label': t`Close` }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            <Trans>
              The package starts as a draft that customers do not see. Choose its features and limits next,
              then publish it.
            </Trans>
          </Text>
          <PackageDetailsForm
            plan={null}
            submitLabel={t`Create package`}
            onSubmit={(body) => create(body as CreatePlanRequest)}
            onCancel={() => setCreating(false)}
          />
        </Stack>
      </Modal>

      <PackageDrawer
        id={detail.id}
        known={packages.page?.data.find((plan) => plan.id === detail.id)}
        onClose={detail.close}
      />
    </ListPage>
  );
}
