import { Box, Button, MultiSelect, NativeSelect, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { SECURITY_SEVERITIES, type SecurityEvent } from '../../../../shared/api/admin';
import { AdminPage } from '../../components/admin/admin-page';
import { type Column, DataTable } from '../../components/admin/data-table';
import { ListFooter } from '../../components/admin/list-pagination';
import { NoMatches } from '../../components/admin/no-matches';
import { ListToolbar } from '../../components/admin/list-toolbar';
import { fetchSecurityEvents } from '../../features/admin/admin-slice';
import { type ListQuerySpec, useListQuery } from '../../features/admin/list-query';
import { useClampedPage } from '../../features/admin/use-clamped-page';
import { useDetailParam } from '../../features/admin/payments/use-detail-param';
import { DateRangeFilter } from '../../components/admin/date-range-filter';
import {
  eventTime,
  SecurityEventDrawer,
  SeverityBadge,
} from '../../features/admin/security/security-event-drawer';
import {
  eventTypeLabel,
  eventTypeOptions,
  parseTypeFilter,
  SEVERITY_LABELS,
} from '../../features/admin/security/security-event-types';
import { UserFilter } from '../../features/admin/security/user-filter';
import { useListThunk, usePagedList } from '../../features/admin/use-paged-list';

const LIST: ListQuerySpec<'type' | 'severity' | 'userId' | 'from' | 'to'> = {
  sortFields: ['created_at', 'type', 'severity'],
  defaultSort: '-created_at',
  filters: ['type', 'severity', 'userId', 'from', 'to'],
};

const SEVERITY_OPTIONS = [
  { value: '', label: 'Any severity' },
  ...SECURITY_SEVERITIES.map((severity) => ({ value: severity, label: SEVERITY_LABELS[severity].label })),
];

const person = (email: string | null, id: string | null) =>
  email ??
  (id ? (
    'Deleted account'
  ) : (
    <Text span c="dimmed">
      —
    </Text>
  ));

export default function AdminSecurityPage() {
  const list = useListQuery(LIST);
  const { query, setFilter, setFilters } = list;
  const detail = useDetailParam('event');
  const types = useMemo(() => parseTypeFilter(query.filters.type), [query.filters.type]);
  // A hand-edited URL naming a type the server does not know is not sent (the server would refuse the list).
  const params = useMemo(
    () => ({ ...list.params, type: types.length > 0 ? types.join(',') : undefined }),
    [list.params, types],
  );
  const events = usePagedList(useListThunk(fetchSecurityEvents), params);
  useClampedPage(events.page, query.page, list.clampPage);

  const filtered = query.search !== '' || Object.values(query.filters).some((value) => value !== '');

  const columns: Column<SecurityEvent>[] = [
    {
      key: 'time',
      header: 'Time',
      sortField: 'created_at',
      render: (event) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={event.created_at}>{eventTime.format(new Date(event.created_at))}</time>
        </Text>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      sortField: 'type',
      render: (event) => eventTypeLabel(event.type),
    },
    {
      key: 'severity',
      header: 'Severity',
      sortField: 'severity',
      render: (event) => (
        <Box style={{ minWidth: 'max-content' }}>
          <SeverityBadge severity={event.severity} />
        </Box>
      ),
    },
    { key: 'user', header: 'User', render: (event) => person(event.user_email, event.user_id) },
    { key: 'actor', header: 'Actor', render: (event) => person(event.actor_email, event.actor_id) },
    {
      key: 'ip',
      header: 'IP address',
      render: (event) =>
        event.ip ? (
          <Text span size="sm" ff="monospace">
            {event.ip}
          </Text>
        ) : (
          <Text span c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: 'details',
      header: 'Details',
      render: (event) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(event.id)}
          aria-label={`View ${eventTypeLabel(event.type)}, ${eventTime.format(new Date(event.created_at))}`}
        >
          View
        </Button>
      ),
    },
  ];

  return (
    <AdminPage
      title="Security events"
      description="Sign-ins, lockouts, password and role changes, seat limits and every administrator action, newest first."
    >
      <ListToolbar
        searchLabel="Search events"
        searchPlaceholder="Type, e-mail or IP address"
        search={query.search}
        onSearch={list.setSearch}
        filtered={filtered}
        onReset={list.reset}
      >
        <MultiSelect
          size="md"
          label="Event type"
          placeholder={types.length === 0 ? 'Any type' : undefined}
          data={eventTypeOptions}
          value={types}
          onChange={(value) => setFilter('type', value.join(','))}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the event type filter' }}
          nothingFoundMessage="No event type matches"
          comboboxProps={{ withinPortal: true }}
          style={{ flex: '1 1 240px', minWidth: 0 }}
        />
        <NativeSelect
          size="md"
          label="Severity"
          data={SEVERITY_OPTIONS}
          value={query.filters.severity}
          onChange={(event) => setFilter('severity', event.currentTarget.value)}
          style={{ flex: '1 1 150px' }}
        />
        <UserFilter value={query.filters.userId} onChange={(userId) => setFilter('userId', userId)} />
        <DateRangeFilter from={query.filters.from} to={query.filters.to} onChange={setFilters} />
      </ListToolbar>

      <DataTable
        label="Security events"
        columns={columns}
        rows={events.page?.data ?? null}
        rowKey={(event) => event.id}
        loading={events.loading}
        error={events.error}
        onRetry={events.reload}
        sort={query.sort}
        onSort={list.setSort}
        skeletonRows={query.perPage > 10 ? 10 : query.perPage}
        empty={
          filtered ? (
            <Stack align="center" gap="xs">
              <NoMatches
                noun="events"
                hint="Widen the date range, pick other types or severities, or clear the filters."
                onClear={list.reset}
              />
            </Stack>
          ) : (
            <Stack align="center" gap="xs">
              <Text fw={600}>No security events yet</Text>
              <Text size="sm" c="dimmed">
                Sign-ins, password changes and administrator actions are recorded here as they happen.
              </Text>
            </Stack>
          )
        }
      />

      <ListFooter noun="events" result={events.page} query={query} list={list} />

      <SecurityEventDrawer
        id={detail.id}
        known={events.page?.data.find((event) => event.id === detail.id)}
        onClose={detail.close}
        onFilterUser={(userId) => {
          // One navigation: the list narrows to the account and the drawer closes (the list state drops it).
          setFilter('userId', userId);
        }}
      />
    </AdminPage>
  );
}
