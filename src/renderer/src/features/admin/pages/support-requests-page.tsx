import { Button, Code, Group, Text } from '@mantine/core';
import { type AdminSupportRequest, SUPPORT_REQUEST_STATES } from '../../../../../shared/api/support';
import type { Column } from '../../../components/data-table/data-table';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { useDetailParam } from '../payments/use-detail-param';
import { pagedResult, pagesOf } from '../query-answer';
import { adminSupportApi, useListSupportRequestsQuery } from '../support/admin-support-endpoints';
import {
  HandledButton,
  requestTime,
  SupportRequestDrawer,
  SupportStateBadge,
} from '../support/support-request-drawer';
import type { CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'state'> = {
  sortFields: ['created_at'],
  defaultSort: '-created_at',
  filters: ['state'],
};

const STATE_LABELS: Record<(typeof SUPPORT_REQUEST_STATES)[number], string> = {
  open: 'Open',
  handled: 'Handled',
};
const STATE_OPTIONS = [
  { value: '', label: 'Open and handled' },
  ...SUPPORT_REQUEST_STATES.map((state) => ({ value: state, label: STATE_LABELS[state] })),
];

/** The support requests as a CSV file, their messages included. */
const REQUESTS_CSV: CsvColumn<AdminSupportRequest>[] = [
  { header: 'Reference', value: (request) => request.reference },
  { header: 'Received', value: (request) => request.created_at },
  { header: 'From', value: (request) => request.email },
  { header: 'Topic', value: (request) => request.topic },
  { header: 'Subject', value: (request) => request.subject },
  { header: 'Message', value: (request) => request.message },
  { header: 'State', value: (request) => request.state },
  { header: 'Handled', value: (request) => request.handled_at },
  { header: 'Handled by', value: (request) => request.handled_by_email },
];

export default function AdminSupportRequestsPage() {
  const list = useListQuery(LIST);
  const detail = useDetailParam('request');
  const requests = pagedResult(useListSupportRequestsQuery(list.params));
  const [readRequests] = adminSupportApi.endpoints.listSupportRequests.useLazyQuery();
  const shown = requests.page?.data.find((request) => request.id === detail.id) ?? null;

  const columns: Column<AdminSupportRequest>[] = [
    {
      key: 'subject',
      header: 'Subject',
      render: (request) => (
        <Text span size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {request.subject}
        </Text>
      ),
    },
    {
      key: 'received',
      header: 'Received',
      sortField: 'created_at',
      render: (request) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={request.created_at}>{requestTime.format(new Date(request.created_at))}</time>
        </Text>
      ),
    },
    {
      key: 'from',
      header: 'From',
      render: (request) => (
        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
          {request.email}
        </Text>
      ),
    },
    { key: 'topic', header: 'Topic', render: (request) => request.topic },
    {
      key: 'reference',
      header: 'Reference',
      render: (request) => (
        <Code fz="xs" style={{ whiteSpace: 'nowrap' }}>
          {request.reference}
        </Code>
      ),
    },
    { key: 'state', header: 'State', render: (request) => <SupportStateBadge request={request} /> },
    {
      key: 'actions',
      header: 'Actions',
      render: (request) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            onClick={() => detail.open(request.id)}
            aria-label={`Read ${request.reference}`}
          >
            Read
          </Button>
          <HandledButton request={request} />
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title="Support requests"
      description="What customers sent from the Support page. Each was mailed to the support address, if one is set; reply from there."
      list={list}
      result={requests}
      noun="support requests"
      searchPlaceholder="Reference, e-mail or subject"
      filters={
        <FilterSelect
          list={list}
          filter="state"
          label="State"
          data={STATE_OPTIONS}
          style={{ flex: '1 1 170px' }}
        />
      }
      noMatchesHint="Check the reference or e-mail, or clear the filters."
      empty={{
        title: 'No support requests yet',
        text: 'Requests appear here as soon as a customer sends one from the Support page.',
      }}
      csv={{ name: 'support-requests', columns: REQUESTS_CSV, fetchPage: pagesOf(readRequests, list.params) }}
      table={{
        columns,
        rowKey: (request) => request.id,
        skeletonRows: Math.min(list.query.perPage, 10),
      }}
    >
      <SupportRequestDrawer request={shown} onClose={detail.close} />
    </ListPage>
  );
}
