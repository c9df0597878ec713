import { ActionIcon, Anchor, Button, Group, NativeSelect, Stack, Text, Tooltip } from '@mantine/core';
import { useCallback, useState } from 'react';
import type { AdminUser } from '../../../../shared/api/admin';
import { useAppSelector } from '../../app/hooks';
import { AdminPage } from '../../components/admin/admin-page';
import { type Column, DataTable } from '../../components/admin/data-table';
import { ListFooter } from '../../components/admin/list-pagination';
import { NoMatches } from '../../components/admin/no-matches';
import { ListToolbar } from '../../components/admin/list-toolbar';
import { EyeIcon, PencilIcon, PlusIcon, TrashIcon } from '../../components/brand/icons';
import { fetchUsers } from '../../features/admin/admin-slice';
import { useListQuery, type ListQuerySpec } from '../../features/admin/list-query';
import { usePagedList, useListThunk } from '../../features/admin/use-paged-list';
import { CreateUserModal } from '../../features/admin/users/create-user-modal';
import { DeleteUserModal } from '../../features/admin/users/delete-user-modal';
import { EditUserModal } from '../../features/admin/users/edit-user-modal';
import { RoleBadge, UserStatusBadge } from '../../features/admin/users/user-badges';
import { useClampedPage } from '../../features/admin/use-clamped-page';
import { checkDateRange } from '../../features/admin/users/date-range';
import { DateRangeFilter } from '../../components/admin/date-range-filter';
import { UserDetailsDrawer } from '../../features/admin/users/user-details-drawer';
import { ROLE_OPTIONS, USER_STATUS_OPTIONS } from '../../features/admin/users/user-format';
import { selectCurrentUser } from '../../features/auth/auth-slice';
import { formatDate, formatDateTime, formatRelative } from '../../features/license/license-format';

// On a phone two filters share a row (the toolbar's gap is 12 px).
const HALF = 'calc(50% - 6px)';
const CREATED_RANGE = { from: 'Created from', to: 'Created to' };

type UserFilter = 'role' | 'status' | 'from' | 'to';

// The server's sort fields of GET /admin/users (adminUserListQuerySchema); newest accounts first.
const USERS_LIST: ListQuerySpec<UserFilter> = {
  sortFields: ['created_at', 'updated_at', 'email', 'full_name', 'role', 'status'],
  defaultSort: '-created_at',
  filters: ['role', 'status', 'from', 'to'],
};

/** `/admin/users`: every account, with search, filters, sort and paging kept in the URL. */
export default function AdminUsersPage() {
  const list = useListQuery(USERS_LIST);
  const { query } = list;
  const range = checkDateRange(query.filters.from, query.filters.to);
  const loadUsers = useListThunk(fetchUsers);
  // A range that ends before it starts is not sent: the fields say what to fix instead.
  const load = useCallback(
    (params: Parameters<typeof loadUsers>[0]) =>
      range.problem ? Promise.reject(range.problem) : loadUsers(params),
    [loadUsers, range.problem],
  );
  const users = usePagedList(load, list.params);
  // Past the last page (after deletions, or an old link): go to the last page there is.
  useClampedPage(users.page, query.page, list.clampPage);
  const me = useAppSelector(selectCurrentUser);

  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<AdminUser | null>(null);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const filtered =
    !!query.search || Object.values(query.filters).some(Boolean) || query.sort !== USERS_LIST.defaultSort;

  const columns: Column<AdminUser>[] = [
    {
      key: 'user',
      header: 'User',
      sortField: 'email',
      render: (user) => (
        <Stack gap={0} miw={220}>
          <Anchor
            component="button"
            type="button"
            fw={600}
            size="sm"
            ta="left"
            onClick={() => setViewing(user)}
            style={{ overflowWrap: 'anywhere' }}
          >
            {user.full_name || user.email}
          </Anchor>
          {user.full_name && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {user.email}
            </Text>
          )}
          {me?.id === user.id && (
            <Text size="xs" c="dimmed">
              This is you
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'role', header: 'Role', sortField: 'role', render: (user) => <RoleBadge role={user.role} /> },
    {
      key: 'status',
      header: 'Status',
      sortField: 'status',
      render: (user) => <UserStatusBadge status={user.status} />,
    },
    {
      key: 'created',
      header: 'Created',
      sortField: 'created_at',
      render: (user) => (
        <Text size="sm" component="time" dateTime={user.created_at} style={{ whiteSpace: 'nowrap' }}>
          {formatDate(user.created_at)}
        </Text>
      ),
    },
    {
      key: 'lastSignIn',
      header: 'Last sign-in',
      render: (user) =>
        user.last_sign_in_at ? (
          <Text
            size="sm"
            component="time"
            dateTime={user.last_sign_in_at}
            title={formatDateTime(user.last_sign_in_at)}
            style={{ whiteSpace: 'nowrap' }}
          >
            {formatRelative(user.last_sign_in_at)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Never
          </Text>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'right',
      render: (user) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Details" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`Details of ${user.email}`}
              onClick={() => setViewing(user)}
            >
              <EyeIcon size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Edit" withArrow>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`Edit ${user.email}`}
              onClick={() => setEditing(user)}
            >
              <PencilIcon size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete" withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Delete ${user.email}`}
              onClick={() => setDeleting(user)}
            >
              <TrashIcon size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <AdminPage
      title="Users"
      description="Every account: roles, status, licenses and payments."
      actions={
        <Button leftSection={<PlusIcon size={16} />} onClick={() => setCreating(true)}>
          New user
        </Button>
      }
    >
      <ListToolbar
        searchLabel="Search users"
        searchPlaceholder="Email, name or company"
        search={query.search}
        onSearch={list.setSearch}
        filtered={filtered}
        onReset={list.reset}
      >
        <NativeSelect
          label="Role"
          data={[{ value: '', label: 'All roles' }, ...ROLE_OPTIONS]}
          value={query.filters.role}
          onChange={(event) => list.setFilter('role', event.currentTarget.value)}
          size="md"
          w={{ base: HALF, xs: 160 }}
        />
        <NativeSelect
          label="Status"
          data={[{ value: '', label: 'All statuses' }, ...USER_STATUS_OPTIONS]}
          value={query.filters.status}
          onChange={(event) => list.setFilter('status', event.currentTarget.value)}
          size="md"
          w={{ base: HALF, xs: 160 }}
        />
        <DateRangeFilter
          from={query.filters.from}
          to={query.filters.to}
          onChange={list.setFilters}
          labels={CREATED_RANGE}
        />
      </ListToolbar>

      <DataTable
        label="Users"
        columns={columns}
        rows={users.page?.data ?? null}
        rowKey={(user) => user.id}
        loading={users.loading}
        error={users.error}
        onRetry={users.reload}
        sort={query.sort}
        onSort={list.setSort}
        empty={
          filtered ? (
            <>
              <NoMatches noun="users" hint="Try another search or clear the filters." onClear={list.reset} />
            </>
          ) : (
            <>
              <Text fw={600}>No users yet</Text>
              <Text size="sm" c="dimmed">
                Accounts appear here as people register, or create one yourself.
              </Text>
              <Button variant="light" leftSection={<PlusIcon size={16} />} onClick={() => setCreating(true)}>
                New user
              </Button>
            </>
          )
        }
      />

      <ListFooter noun="users" result={users.page} query={query} list={list} />

      <CreateUserModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={() => {
          setCreating(false);
          users.reload();
        }}
      />
      <EditUserModal
        user={editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          // The drawer shows the saved account (and reloads its details).
          setViewing((current) => (current?.id === saved.id ? saved : current));
          users.reload();
        }}
      />
      <DeleteUserModal
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => {
          setDeleting(null);
          setViewing((current) => (current?.id === id ? null : current));
          users.reload();
        }}
      />
      <UserDetailsDrawer
        user={viewing}
        onClose={() => setViewing(null)}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
    </AdminPage>
  );
}
