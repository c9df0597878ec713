import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Button, MultiSelect, Text } from '@mantine/core';
import { useMemo } from 'react';
import { SECURITY_SEVERITIES, type SecurityEvent } from '../../../../../shared/api/admin';
import type { Column } from '../../../components/data-table/data-table';
import { DateRangeFilter } from '../../../components/data-table/date-range-filter';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { adminApi, useListSecurityEventsQuery } from '../admin-endpoints';
import { useDetailParam } from '../payments/use-detail-param';
import { pagedResult, pagesOf } from '../query-answer';
import { eventTime, personName, SecurityEventDrawer, SeverityBadge } from '../security/security-event-drawer';
import {
  eventTypeLabel,
  eventTypeOptions,
  parseTypeFilter,
  SEVERITY_LABELS,
  severityLabel,
} from '../security/security-event-types';
import { UserFilter } from '../security/user-filter';
import type { CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'type' | 'severity' | 'userId' | 'from' | 'to'> = {
  sortFields: ['created_at', 'type', 'severity'],
  defaultSort: '-created_at',
  filters: ['type', 'severity', 'userId', 'from', 'to'],
};

const SEVERITY_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Any severity` },
  ...SECURITY_SEVERITIES.map((severity) => ({ value: severity, label: SEVERITY_LABELS[severity].label })),
];

// A long address wraps within its column, so the row fits a 1,440 px screen without scrolling.
const person = (email: string | null, id: string | null) => {
  const name = personName(email, id);
  return name ? (
    <Text span size="sm" display="inline-block" maw={220} style={{ overflowWrap: 'anywhere' }}>
      {name}
    </Text>
  ) : (
    <Text span c="dimmed">
      —
    </Text>
  );
};

/** The security events as a CSV file: times in ISO 8601 (UTC), details as JSON. */
const EVENTS_CSV: CsvColumn<SecurityEvent>[] = [
  { header: 'Time', value: (event) => event.created_at },
  { header: 'Event', value: (event) => eventTypeLabel(event.type) },
  { header: 'Type', value: (event) => event.type },
  { header: 'Severity', value: (event) => severityLabel(event.severity) },
  { header: 'Account', value: (event) => event.user_email ?? event.user_id },
  { header: 'By', value: (event) => event.actor_email ?? event.actor_id },
  { header: 'IP address', value: (event) => event.ip },
  { header: 'Browser', value: (event) => event.user_agent },
  { header: 'Details', value: (event) => (event.details ? JSON.stringify(event.details) : null) },
  { header: 'ID', value: (event) => event.id },
];

export default function AdminSecurityPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const { query, setFilter, setFilters } = list;
  const detail = useDetailParam('event');
  const types = useMemo(() => parseTypeFilter(query.filters.type), [query.filters.type]);
  // A hand-edited URL naming a type the server does not know is not sent (the server would refuse the list).
  const params = useMemo(
    () => ({ ...list.params, type: types.length > 0 ? types.join(',') : undefined }),
    [list.params, types],
  );
  const events = pagedResult(useListSecurityEventsQuery(params));
  const [readEvents] = adminApi.endpoints.listSecurityEvents.useLazyQuery();

  const columns: Column<SecurityEvent>[] = [
    {
      key: 'time',
      header: t`Time`,
      sortField: 'created_at',
      render: (event) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={event.created_at}>{eventTime.format(new Date(event.created_at))}</time>
        </Text>
      ),
    },
    {
      key: 'type',
      header: t`Type`,
      sortField: 'type',
      render: (event) => eventTypeLabel(event.type),
    },
    {
      key: 'severity',
      header: t`Severity`,
      sortField: 'severity',
      render: (event) => (
        <Box style={{ minWidth: 'max-content' }}>
          <SeverityBadge severity={event.severity} />
        </Box>
      ),
    },
    { key: 'user', header: t`User`, render: (event) => person(event.user_email, event.user_id) },
    { key: 'actor', header: t`Actor`, render: (event) => person(event.actor_email, event.actor_id) },
    {
      key: 'ip',
      header: t`IP address`,
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
      header: t`Details`,
      card: 'actions',
      render: (event) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(event.id)}
          aria-label={t`View ${ph({ event: eventTypeLabel(event.type) })}, ${ph({ time: eventTime.format(new Date(event.created_at)) })}`}
        >
          <Trans>View</Trans>
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Security events`}
      description={t`Sign-ins, lockouts, password and role changes, seat limits and every administrator action, newest first.`}
      list={list}
      result={events}
      noun={t`events`}
      searchPlaceholder={t`Type, e-mail or IP address`}
      filters={
        <>
          <MultiSelect
            size="md"
            label={t`Event type`}
            placeholder={types.length === 0 ? t`Any type` : undefined}
            data={eventTypeOptions()}
            value={types}
            onChange={(value) => setFilter('type', value.join(','))}
            searchable
            clearable
            clearButtonProps={{ 'aria-label': t`Clear the event type filter` }}
            nothingFoundMessage={t`No event type matches`}
            comboboxProps={{ withinPortal: true }}
            style={{ flex: '1 1 240px', minWidth: 0 }}
          />
          <FilterSelect
            list={list}
            filter="severity"
            label={t`Severity`}
            data={optionsIn(i18n, SEVERITY_OPTIONS)}
            style={{ flex: '1 1 150px' }}
          />
          <UserFilter value={query.filters.userId} onChange={(userId) => setFilter('userId', userId)} />
          <DateRangeFilter from={query.filters.from} to={query.filters.to} onChange={setFilters} />
        </>
      }
      noMatchesHint={t`Widen the date range, pick other types or severities, or clear the filters.`}
      empty={{
        title: t`No security events yet`,
        text: t`Sign-ins, password changes and administrator actions are recorded here as they happen.`,
      }}
      csv={{ name: 'security-events', columns: EVENTS_CSV, fetchPage: pagesOf(readEvents, params) }}
      table={{
        columns,
        rowKey: (event) => event.id,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    >
      <SecurityEventDrawer
        id={detail.id}
        known={events.page?.data.find((event) => event.id === detail.id)}
        onClose={detail.close}
        onFilterUser={(userId) => {
          // One navigation: the list narrows to the account and the drawer closes (the list state drops it).
          setFilter('userId', userId);
        }}
      />
    </ListPage>
  );
}
