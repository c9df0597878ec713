import { ActionIcon, Anchor, Button, Code, Group, NativeSelect, Stack, Text, Tooltip } from '@mantine/core';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminLicense } from '../../../../shared/api/admin';
import { LICENSE_STATUSES } from '../../../../shared/api/licenses';
import { portalPaths } from '../../../../shared/routes';
import { AdminPage } from '../../components/admin/admin-page';
import { type Column, DataTable } from '../../components/admin/data-table';
import { ListFooter } from '../../components/admin/list-pagination';
import { NoMatches } from '../../components/admin/no-matches';
import { ListToolbar } from '../../components/admin/list-toolbar';
import { BanIcon, DeviceIcon, PencilIcon, PlusIcon } from '../../components/brand/icons';
import { LicenseStatusBadge } from '../../components/licenses/license-status-badge';
import { fetchAdminLicenses } from '../../features/admin/admin-slice';
import { ActivationsDrawer } from '../../features/admin/licenses/activations-drawer';
import { CreateLicenseModal } from '../../features/admin/licenses/create-license-modal';
import { EditLicenseModal } from '../../features/admin/licenses/edit-license-modal';
import { planLabel, usePlans } from '../../features/admin/licenses/plan-options';
import { RevokeLicenseModal } from '../../features/admin/licenses/revoke-license-modal';
import { UserPicker } from '../../features/admin/licenses/user-picker';
import { useListQuery, type ListQuerySpec } from '../../features/admin/list-query';
import { usePagedList, useListThunk } from '../../features/admin/use-paged-list';
import { useClampedPage } from '../../features/admin/use-clamped-page';
import { checkDateRange } from '../../features/admin/users/date-range';
import { DateRangeFilter } from '../../components/admin/date-range-filter';
import { formatDate, formatNumber, STATUS_LABELS } from '../../features/license/license-format';

// On a phone two filters share a row (the toolbar's gap is 12 px).
const HALF = 'calc(50% - 6px)';
const CREATED_RANGE = { from: 'Created from', to: 'Created to' };

type LicenseFilter = 'status' | 'planId' | 'userId' | 'from' | 'to';

// The server's sort fields of GET /admin/licenses (adminLicenseListQuerySchema); newest first.
const LICENSES_LIST: ListQuerySpec<LicenseFilter> = {
  sortFields: ['created_at', 'updated_at', 'expires_at', 'user_email', 'plan_name'],
  defaultSort: '-created_at',
  filters: ['status', 'planId', 'userId', 'from', 'to'],
};

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...LICENSE_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
];

function Expiry({ licence }: { licence: AdminLicense }) {
  if (!licence.expires_at)
    return (
      <Text size="sm" c="dimmed">
        Never
      </Text>
    );
  const past = new Date(licence.expires_at).getTime() < Date.now();
  return (
    <Text
      size="sm"
      component="time"
      dateTime={licence.expires_at}
      style={{ whiteSpace: 'nowrap' }}
      c={past ? 'dimmed' : undefined}
    >
      {formatDate(licence.expires_at)}
    </Text>
  );
}

/** `/admin/licenses`: every license, with search, filters, sort and paging kept in the URL (`?userId=` included). */
export default function AdminLicensesPage() {
  const list = useListQuery(LICENSES_LIST);
  const { query } = list;
  const range = checkDateRange(query.filters.from, query.filters.to);
  const loadLicences = useListThunk(fetchAdminLicenses);
  const load = useCallback(
    (params: Parameters<typeof loadLicences>[0]) =>
      range.problem ? Promise.reject(range.problem) : loadLicences(params),
    [loadLicences, range.problem],
  );
  const licences = usePagedList(load, list.params);
  const { plans, error: plansError } = usePlans();

  // Past the last page (after a change, or an old link): go to the last page there is.
  useClampedPage(licences.page, query.page, list.clampPage);

  const [creating, setCreating] = useState(false);
  const [machinesOf, setMachinesOf] = useState<AdminLicense | null>(null);
  const [editing, setEditing] = useState<AdminLicense | null>(null);
  const [revoking, setRevoking] = useState<AdminLicense | null>(null);

  const filtered =
    !!query.search || Object.values(query.filters).some(Boolean) || query.sort !== LICENSES_LIST.defaultSort;

  const columns: Column<AdminLicense>[] = [
    {
      key: 'key',
      header: 'License key',
      render: (licence) => (
        <Stack gap={2} align="flex-start">
          <Code fz="xs" style={{ whiteSpace: 'nowrap' }}>
            {licence.license_key}
          </Code>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            Issued <time dateTime={licence.created_at}>{formatDate(licence.created_at)}</time>
          </Text>
        </Stack>
      ),
    },
    {
      key: 'user',
      header: 'User',
      sortField: 'user_email',
      render: (licence) =>
        licence.user_email ? (
          <Anchor
            component={Link}
            to={`${portalPaths.adminUsers}?search=${encodeURIComponent(licence.user_email)}`}
            size="sm"
            // Long addresses wrap rather than push the actions out of view.
            style={{ display: 'inline-block', minWidth: 180, overflowWrap: 'anywhere' }}
          >
            {licence.user_email}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Deleted account
          </Text>
        ),
    },
    {
      key: 'plan',
      header: 'Plan',
      sortField: 'plan_name',
      render: (licence) => <Text size="sm">{licence.plan.name}</Text>,
    },
    {
      key: 'status',
      header: 'Status',
      render: (licence) => (
        <Stack gap={2} align="flex-start">
          <LicenseStatusBadge status={licence.status} size="md" />
          {licence.revoked_reason && (
            <Text size="xs" c="dimmed" lineClamp={2} maw={220} title={licence.revoked_reason}>
              Reason: {licence.revoked_reason}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'seats',
      header: 'Seats',
      align: 'right',
      render: (licence) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatNumber(licence.activations_used)} / {formatNumber(licence.max_activations)}
        </Text>
      ),
    },
    {
      key: 'expires',
      header: 'Expires',
      sortField: 'expires_at',
      render: (licence) => <Expiry licence={licence} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (licence) => {
        const revoked = licence.status === 'revoked';
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Tooltip label="Machines" withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={`Machines of ${licence.license_key}`}
                onClick={() => setMachinesOf(licence)}
              >
                <DeviceIcon size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={revoked ? 'A revoked license cannot be changed' : 'Edit'} withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={`Edit ${licence.license_key}`}
                disabled={revoked}
                onClick={() => setEditing(licence)}
              >
                <PencilIcon size={18} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={revoked ? 'Already revoked' : 'Revoke'} withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Revoke ${licence.license_key}`}
                disabled={revoked}
                onClick={() => setRevoking(licence)}
              >
                <BanIcon size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        );
      },
    },
  ];

  return (
    <AdminPage
      title="Licenses"
      description="Every license: its owner, plan, seats and machines."
      actions={
        <Button leftSection={<PlusIcon size={16} />} onClick={() => setCreating(true)}>
          New license
        </Button>
      }
    >
      <ListToolbar
        searchLabel="Search licenses"
        searchPlaceholder="License key or owner email"
        search={query.search}
        onSearch={list.setSearch}
        filtered={filtered}
        onReset={list.reset}
      >
        <NativeSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={query.filters.status}
          onChange={(event) => list.setFilter('status', event.currentTarget.value)}
          size="md"
          w={{ base: HALF, xs: 150 }}
        />
        <NativeSelect
          label="Plan"
          data={[
            { value: '', label: 'All plans' },
            ...(plans ?? []).map((plan) => ({ value: plan.id, label: planLabel(plan) })),
            // A plan id from a link shows even before (or without) the plan list.
            ...(query.filters.planId && !plans?.some((plan) => plan.id === query.filters.planId)
              ? [{ value: query.filters.planId, label: plans ? 'Unknown plan' : 'Loading…' }]
              : []),
          ]}
          value={query.filters.planId}
          onChange={(event) => list.setFilter('planId', event.currentTarget.value)}
          error={plansError ?? undefined}
          size="md"
          w={{ base: HALF, xs: 170 }}
        />
        <UserPicker
          label="User"
          size="md"
          w={{ base: '100%', xs: 240 }}
          value={query.filters.userId || null}
          onChange={(id) => list.setFilter('userId', id ?? '')}
          placeholder="All users"
        />
        <DateRangeFilter
          from={query.filters.from}
          to={query.filters.to}
          onChange={list.setFilters}
          labels={CREATED_RANGE}
        />
      </ListToolbar>

      <DataTable
        label="Licenses"
        columns={columns}
        rows={licences.page?.data ?? null}
        rowKey={(licence) => licence.license_id}
        loading={licences.loading}
        error={licences.error}
        onRetry={licences.reload}
        sort={query.sort}
        onSort={list.setSort}
        empty={
          filtered ? (
            <>
              <NoMatches
                noun="licenses"
                hint="Try another search or clear the filters."
                onClear={list.reset}
              />
            </>
          ) : (
            <>
              <Text fw={600}>No licenses yet</Text>
              <Text size="sm" c="dimmed">
                Licenses appear here as customers buy plans or activate the free Base plan, or issue one
                yourself.
              </Text>
              <Button variant="light" leftSection={<PlusIcon size={16} />} onClick={() => setCreating(true)}>
                New license
              </Button>
            </>
          )
        }
      />

      <ListFooter noun="licenses" result={licences.page} query={query} list={list} />

      <CreateLicenseModal
        opened={creating}
        userId={query.filters.userId || null}
        plans={plans}
        plansError={plansError}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          licences.reload();
        }}
      />
      <EditLicenseModal
        licence={editing}
        plans={plans}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          licences.reload();
        }}
      />
      <RevokeLicenseModal
        licence={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={() => {
          setRevoking(null);
          licences.reload();
        }}
      />
      <ActivationsDrawer
        licence={machinesOf}
        onClose={() => setMachinesOf(null)}
        onChanged={() => licences.reload()}
      />
    </AdminPage>
  );
}
