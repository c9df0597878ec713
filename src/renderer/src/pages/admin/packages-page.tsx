import { Button, Code, Group, Modal, NativeSelect, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useState } from 'react';
import type { CreatePlanRequest, Plan } from '../../../../shared/api/plans';
import { AdminPage } from '../../components/admin/admin-page';
import { type Column, DataTable } from '../../components/admin/data-table';
import { ListFooter } from '../../components/admin/list-pagination';
import { NoMatches } from '../../components/admin/no-matches';
import { ListToolbar } from '../../components/admin/list-toolbar';
import { PlusIcon } from '../../components/brand/icons';
import { StatusBadge } from '../../components/data/status-badge';
import { formatPlanPrice } from '../../components/plans/plan-format';
import type { ListParams } from '../../features/admin/admin-types';
import { type ListQuerySpec, useListQuery } from '../../features/admin/list-query';
import { PackageDetailsForm } from '../../features/admin/packages/package-details-form';
import { PackageDrawer } from '../../features/admin/packages/package-drawer';
import { packageState } from '../../features/admin/packages/package-format';
import { createPackage, fetchPackages } from '../../features/admin/packages/packages-api';
import { useClampedPage } from '../../features/admin/use-clamped-page';
import { useDetailParam } from '../../features/admin/payments/use-detail-param';
import { usePagedList } from '../../features/admin/use-paged-list';

const LIST: ListQuerySpec<'status'> = {
  sortFields: ['sort_order', 'name', 'code', 'price_minor', 'created_at'],
  defaultSort: 'sort_order',
  filters: ['status'],
};

const STATUS_OPTIONS = [
  { value: '', label: 'All packages' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'archived', label: 'Archived' },
];

const number = new Intl.NumberFormat();

/** The list keeps no package in the store (plans are not in the admin slice). */
const loadPackages = (params: ListParams) => fetchPackages(params);

export default function AdminPackagesPage() {
  const list = useListQuery(LIST);
  const { query } = list;
  const detail = useDetailParam('package');
  const packages = usePagedList(loadPackages, list.params);
  useClampedPage(packages.page, query.page, list.clampPage);
  const [creating, setCreating] = useState(false);
  const { reload } = packages;
  const onChanged = useCallback(() => reload(), [reload]);

  const filtered = query.search !== '' || query.filters.status !== '';

  const create = async (body: CreatePlanRequest) => {
    const plan = await createPackage(body);
    notifications.show({
      color: 'teal',
      title: 'Package created',
      message: `${plan.name} is ready: choose its features and limits.`,
    });
    setCreating(false);
    reload();
    detail.open(plan.id);
  };

  const columns: Column<Plan>[] = [
    {
      key: 'name',
      header: 'Package',
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
      header: 'Code',
      sortField: 'code',
      render: (plan) => (
        <Code fz="xs" style={{ whiteSpace: 'nowrap' }}>
          {plan.code}
        </Code>
      ),
    },
    {
      key: 'price',
      header: 'Price',
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
    { key: 'seats', header: 'Seats', align: 'right', render: (plan) => number.format(plan.max_activations) },
    {
      key: 'features',
      header: 'Features',
      align: 'right',
      render: (plan) => number.format(plan.features.length),
    },
    {
      key: 'status',
      header: 'Status',
      render: (plan) => {
        const state = packageState(plan);
        return (
          <Group gap={6} wrap="nowrap" style={{ minWidth: 'max-content' }}>
            <StatusBadge tone={state.tone} size="md">
              {state.label}
            </StatusBadge>
            {!plan.is_public && !plan.archived_at ? (
              <StatusBadge tone="neutral" size="md">
                Hidden
              </StatusBadge>
            ) : null}
          </Group>
        );
      },
    },
    {
      key: 'order',
      header: 'Order',
      sortField: 'sort_order',
      align: 'right',
      render: (plan) => plan.sort_order,
    },
    {
      key: 'manage',
      header: 'Manage',
      render: (plan) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(plan.id)}
          aria-label={`Manage ${plan.name}`}
        >
          Manage
        </Button>
      ),
    },
  ];

  return (
    <AdminPage
      title="Packages"
      description="What customers buy: price, seats, and the features and limits each package includes."
      actions={
        <Button leftSection={<PlusIcon size={18} />} onClick={() => setCreating(true)}>
          New package
        </Button>
      }
    >
      <ListToolbar
        searchLabel="Search packages"
        searchPlaceholder="Name, code or description"
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
          onChange={(event) => list.setFilter('status', event.currentTarget.value)}
          style={{ flex: '1 1 150px' }}
        />
      </ListToolbar>

      <DataTable
        label="Packages"
        columns={columns}
        rows={packages.page?.data ?? null}
        rowKey={(plan) => plan.id}
        loading={packages.loading}
        error={packages.error}
        onRetry={packages.reload}
        sort={query.sort}
        onSort={list.setSort}
        skeletonRows={Math.min(query.perPage, 10)}
        empty={
          filtered ? (
            <Stack align="center" gap="xs">
              <NoMatches
                noun="packages"
                hint="Try another name or code, or clear the filters."
                onClear={list.reset}
              />
            </Stack>
          ) : (
            <Stack align="center" gap="xs">
              <Text fw={600}>No packages yet</Text>
              <Text size="sm" c="dimmed">
                Create a package, then choose the features it includes. Customers see it on the Purchase page.
              </Text>
              <Button variant="light" onClick={() => setCreating(true)}>
                New package
              </Button>
            </Stack>
          )
        }
      />

      <ListFooter noun="packages" result={packages.page} query={query} list={list} />

      <Modal
        opened={creating}
        onClose={() => setCreating(false)}
        title="New package"
        size="lg"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Features and limits are chosen next, once the package exists.
          </Text>
          <PackageDetailsForm
            plan={null}
            submitLabel="Create package"
            onSubmit={(body) => create(body as CreatePlanRequest)}
            onCancel={() => setCreating(false)}
          />
        </Stack>
      </Modal>

      <PackageDrawer
        id={detail.id}
        known={packages.page?.data.find((plan) => plan.id === detail.id)}
        onClose={detail.close}
        onChanged={onChanged}
      />
    </AdminPage>
  );
}
