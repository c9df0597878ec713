import type { MessageDescriptor } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
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

const STATE_LABELS: Record<(typeof SUPPORT_REQUEST_STATES)[number], MessageDescriptor> = {
  open: msg`Open`,
  handled: msg`Handled`,
};
const STATE_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`Open and handled` },
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
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const detail = useDetailParam('request');
  const requests = pagedResult(useListSupportRequestsQuery(list.params));
  const [readRequests] = adminSupportApi.endpoints.listSupportRequests.useLazyQuery();
  const shown = requests.page?.data.find((request) => request.id === detail.id) ?? null;

  const columns: Column<AdminSupportRequest>[] = [
    {
      key: 'subject',
      header: t`Subject`,
      render: (request) => (
        <Text span size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {request.subject}
        </Text>
      ),
    },
    {
      key: 'received',
      header: t`Received`,
      sortField: 'created_at',
      render: (request) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          <time dateTime={request.created_at}>{requestTime().format(new Date(request.created_at))}</time>
        </Text>
      ),
    },
    {
      key: 'from',
      header: t`From`,
      render: (request) => (
        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
          {request.email}
        </Text>
      ),
    },
    { key: 'topic', header: t`Topic`, render: (request) => request.topic },
    {
      key: 'reference',
      header: t`Reference`,
      render: (request) => (
        <Code fz="xs" style={{ whiteSpace: 'nowrap' }}>
          {request.reference}
        </Code>
      ),
    },
    { key: 'state', header: t`State`, render: (request) => <SupportStateBadge request={request} /> },
    {
      key: 'actions',
      header: t`Actions`,
      render: (request) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="light"
            onClick={() => detail.open(request.id)}
            aria-label={t`Read ${ph({ reference: request.reference })}`}
          >
            <Trans>Read</Trans>
          </Button>
          <HandledButton request={request} />
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Support requests`}
      description={t`What customers sent from the Support page. Each was mailed to the support address, if one is set; reply from there.`}
      list={list}
      result={requests}
      noun={t`support requests`}
      searchPlaceholder={t`Reference, e-mail or subject`}
      filters={
        <FilterSelect
          list={list}
          filter="state"
          label={t`State`}
          data={optionsIn(i18n, STATE_OPTIONS)}
          style={{ flex: '1 1 170px' }}
        />
      }
      noMatchesHint={t`Check the reference or e-mail, or clear the filters.`}
      empty={{
        title: t`No support requests yet`,
        text: t`Requests appear here as soon as a customer sends one from the Support page.`,
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
