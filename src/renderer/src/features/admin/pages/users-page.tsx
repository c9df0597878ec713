import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { AdminUser } from '../../../../../shared/api/admin';
import { EyeIcon, PencilIcon, TrashIcon } from '../../../components/brand/icons';
import type { Column } from '../../../components/data-table/data-table';
import { DateRangeFilter } from '../../../components/data-table/date-range-filter';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { HALF_ROW } from '../../../components/data-table/list-toolbar';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { useAppSelector } from '../../../lib/store-hooks';
import { selectCurrentUser } from '../../auth';
import { formatDate, formatDateTime, formatRelative } from '../../licenses';
import { adminApi, useListUsersQuery } from '../admin-endpoints';
import { pagedResult, pagesOf } from '../query-answer';
import { CreateUserModal } from '../users/create-user-modal';
import { optionsIn } from '../options-in';
import { createdRange, rangeCheckedParams } from '../users/date-range';
import { DeleteUserModal } from '../users/delete-user-modal';
import { EditUserModal } from '../users/edit-user-modal';
import { AccountStateBadge, RoleBadge } from '../users/user-badges';
import { UserDetailsDrawer } from '../users/user-details-drawer';
import {
  accountState,
  ROLE_LABELS,
  ROLE_OPTIONS,
  USER_STATUS_OPTIONS,
  VERIFICATION_OPTIONS,
} from '../users/user-format';
import { i18n } from '@lingui/core';
import type { CsvColumn } from '../../../components/data-table/csv';

/** The users list as a CSV file: one row per account, times in ISO 8601 (UTC). */
const USERS_CSV: CsvColumn<AdminUser>[] = [
  { header: 'E-mail', value: (user) => user.email },
  { header: 'Name', value: (user) => user.full_name },
  { header: 'Company', value: (user) => user.company },
  { header: 'Role', value: (user) => i18n._(ROLE_LABELS[user.role]) },
  { header: 'Status', value: (user) => accountState(user, i18n).label },
  { header: 'E-mail confirmed', value: (user) => (user.email_verified ? 'Yes' : 'No') },
  { header: 'Created', value: (user) => user.created_at },
  { header: 'Last sign-in', value: (user) => user.last_sign_in_at },
  { header: 'ID', value: (user) => user.id },
];

type UserFilter = 'role' | 'status' | 'verification' | 'from' | 'to';

// The server's sort fields of GET /admin/users (adminUserListQuerySchema); newest accounts first.
const USERS_LIST: ListQuerySpec<UserFilter> = {
  sortFields: ['created_at', 'updated_at', 'email', 'full_name', 'role', 'status'],
  defaultSort: '-created_at',
  filters: ['role', 'status', 'verification', 'from', 'to'],
};

/** `/admin/users`: every account, with search, filters, sort and paging kept in the URL. */
export default function AdminUsersPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(USERS_LIST);
  const { query } = list;
  const range = rangeCheckedParams(list);
  const users = pagedResult(useListUsersQuery(range.params), range.problem);
  const [readUsers] = adminApi.endpoints.listUsers.useLazyQuery();
  const me = useAppSelector(selectCurrentUser);

  const [creating, setCreating] = useState(false);
  const [viewing, setViewing] = useState<AdminUser | null>(null);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);

  const columns: Column<AdminUser>[] = [
    {
      key: 'user',
      header: t`User`,
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
              <Trans>This is you</Trans>
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'role', header: t`Role`, sortField: 'role', render: (user) => <RoleBadge role={user.role} /> },
    {
      key: 'status',
      header: t`Status`,
      sortField: 'status',
      render: (user) => <AccountStateBadge user={user} />,
    },
    {
      key: 'created',
      header: t`Created`,
      sortField: 'created_at',
      render: (user) => (
        <Text size="sm" component="time" dateTime={user.created_at} style={{ whiteSpace: 'nowrap' }}>
          {formatDate(user.created_at)}
        </Text>
      ),
    },
    {
      key: 'lastSignIn',
      header: t`Last sign-in`,
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
            <Trans>Never</Trans>
          </Text>
        ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      align: 'right',
      render: (user) => {
        const email = user.email;
        return (
          <RowActions>
            <RowAction
              label={t`Details of ${email}`}
              tooltip={t`Details`}
              icon={EyeIcon}
              onClick={() => setViewing(user)}
            />
            <RowAction
              label={t`Edit ${email}`}
              tooltip={t`Edit`}
              icon={PencilIcon}
              onClick={() => setEditing(user)}
            />
            <RowAction
              label={t`Delete ${email}`}
              tooltip={t`Delete`}
              icon={TrashIcon}
              danger
              onClick={() => setDeleting(user)}
            />
          </RowActions>
        );
      },
    },
  ];

  return (
    <ListPage
      title={t`Users`}
      description={t`Every account: roles, status, licenses and payments.`}
      create={{ label: t`New user`, onClick: () => setCreating(true) }}
      list={list}
      result={users}
      noun={t`users`}
      searchPlaceholder={t`E-mail, name or company`}
      filtered={list.filtered || query.sort !== USERS_LIST.defaultSort}
      filters={
        <>
          <FilterSelect
            list={list}
            filter="role"
            label={t`Role`}
            data={[{ value: '', label: t`All roles` }, ...optionsIn(i18n, ROLE_OPTIONS)]}
            w={{ base: HALF_ROW, xs: 160 }}
          />
          <FilterSelect
            list={list}
            filter="status"
            label={t`Status`}
            data={[{ value: '', label: t`All statuses` }, ...optionsIn(i18n, USER_STATUS_OPTIONS)]}
            w={{ base: HALF_ROW, xs: 160 }}
          />
          <FilterSelect
            list={list}
            filter="verification"
            label={t`E-mail`}
            data={[{ value: '', label: t`All accounts` }, ...optionsIn(i18n, VERIFICATION_OPTIONS)]}
            w={{ base: HALF_ROW, xs: 170 }}
          />
          <DateRangeFilter
            from={query.filters.from}
            to={query.filters.to}
            onChange={list.setFilters}
            labels={createdRange(i18n)}
          />
        </>
      }
      noMatchesHint={t`Try another search or clear the filters.`}
      empty={{
        title: t`No users yet`,
        text: t`Accounts appear here as people register, or create one yourself.`,
      }}
      table={{ columns, rowKey: (user) => user.id }}
      csv={
        range.problem
          ? undefined
          : { name: 'users', columns: USERS_CSV, fetchPage: pagesOf(readUsers, list.params) }
      }
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
        onChanged={(saved) => setViewing((current) => (current?.id === saved.id ? saved : current))}
      />
    </ListPage>
  );
}
