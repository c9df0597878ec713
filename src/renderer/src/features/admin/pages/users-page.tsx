import { Anchor, NativeSelect, Stack, Text } from '@mantine/core';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { EyeIcon, PencilIcon, TrashIcon } from '../../../components/brand/icons';
import type { Column } from '../../../components/data-table/data-table';
import { DateRangeFilter } from '../../../components/data-table/date-range-filter';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import { formatDate, formatDateTime, formatRelative } from '../../license';
import { useListUsersQuery } from '../admin-endpoints';
import { pagedResult } from '../query-answer';
import { CreateUserModal } from '../users/create-user-modal';
import { checkDateRange } from '../users/date-range';
import { DeleteUserModal } from '../users/delete-user-modal';
import { EditUserModal } from '../users/edit-user-modal';
import { RoleBadge, UserStatusBadge } from '../users/user-badges';
import { UserDetailsDrawer } from '../users/user-details-drawer';
import { ROLE_OPTIONS, USER_STATUS_OPTIONS } from '../users/user-format';

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
  // A range that ends before it starts is not sent: the fields say what to fix instead.
  const users = pagedResult(useListUsersQuery(range.problem ? skipToken : list.params), range.problem);
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
        <RowActions>
          <RowAction
            label={`Details of ${user.email}`}
            tooltip="Details"
            icon={EyeIcon}
            onClick={() => setViewing(user)}
          />
          <RowAction
            label={`Edit ${user.email}`}
            tooltip="Edit"
            icon={PencilIcon}
            onClick={() => setEditing(user)}
          />
          <RowAction
            label={`Delete ${user.email}`}
            tooltip="Delete"
            icon={TrashIcon}
            danger
            onClick={() => setDeleting(user)}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title="Users"
      description="Every account: roles, status, licenses and payments."
      create={{ label: 'New user', onClick: () => setCreating(true) }}
      list={list}
      result={users}
      noun="users"
      search={{ label: 'Search users', placeholder: 'Email, name or company' }}
      filtered={filtered}
      filters={
        <>
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
        </>
      }
      noMatchesHint="Try another search or clear the filters."
      empty={{
        title: 'No users yet',
        text: 'Accounts appear here as people register, or create one yourself.',
      }}
      table={{ label: 'Users', columns, rowKey: (user) => user.id }}
    >
      <CreateUserModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={() => setCreating(false)}
      />
      <EditUserModal
        user={editing}
        onClose={() => setEditing(null)}
        onSaved={(saved) => {
          setEditing(null);
          // The drawer shows the saved account (and reloads its details).
          setViewing((current) => (current?.id === saved.id ? saved : current));
        }}
      />
      <DeleteUserModal
        user={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(id) => {
          setDeleting(null);
          setViewing((current) => (current?.id === id ? null : current));
        }}
      />
      <UserDetailsDrawer
        user={viewing}
        onClose={() => setViewing(null)}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
    </ListPage>
  );
}
