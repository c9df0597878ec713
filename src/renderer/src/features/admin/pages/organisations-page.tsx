import { ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Text } from '@mantine/core';
import type { Column } from '../../../components/data-table/data-table';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { formatDate, formatNumber } from '../../licenses';
import {
  type AdminOrganisationSummary,
  adminOrganisationsApi,
  useListAdminOrganisationsQuery,
} from '../organisations/admin-organisations-endpoints';
import { OrganisationDrawer } from '../organisations/organisation-drawer';
import { SeatsUsed } from '../organisations/organisation-format';
import { useDetailParam } from '../payments/use-detail-param';
import { pagedResult, pagesOf } from '../query-answer';
import type { CsvColumn } from '../../../components/data-table/csv';

// The server's sort fields of GET /admin/organisations (adminOrganisationListQuerySchema); newest first.
const LIST: ListQuerySpec<never> = {
  sortFields: ['created_at', 'name'],
  defaultSort: '-created_at',
  filters: [],
};

const nowrap = { whiteSpace: 'nowrap' } as const;

/** The organizations list as a CSV file: one row per organization, times in ISO 8601 (UTC). */
const ORGANISATIONS_CSV: CsvColumn<AdminOrganisationSummary>[] = [
  { header: 'Name', value: (organisation) => organisation.name },
  { header: 'Owner', value: (organisation) => organisation.owner_email },
  { header: 'Members', value: (organisation) => organisation.members_count },
  { header: 'Seats assigned', value: (organisation) => organisation.seats?.assigned },
  { header: 'Seats bought', value: (organisation) => organisation.seats?.bought },
  { header: 'Created', value: (organisation) => organisation.created_at },
  { header: 'ID', value: (organisation) => organisation.id },
];

/** `/admin/organisations`: every organisation with its owner and seats; the drawer shows members and acts on them. */
export default function AdminOrganisationsPage() {
  const { t } = useLingui();
  const list = useListQuery(LIST);
  const { query } = list;
  const detail = useDetailParam('organisation');
  const organisations = pagedResult(useListAdminOrganisationsQuery(list.params));
  const [readOrganisations] = adminOrganisationsApi.endpoints.listAdminOrganisations.useLazyQuery();

  const columns: Column<AdminOrganisationSummary>[] = [
    {
      key: 'name',
      header: t`Name`,
      sortField: 'name',
      render: (row) => (
        <Anchor
          component="button"
          type="button"
          fw={600}
          size="sm"
          ta="left"
          onClick={() => detail.open(row.id)}
          style={{ overflowWrap: 'anywhere' }}
        >
          {row.name}
        </Anchor>
      ),
    },
    {
      key: 'owner',
      header: t`Owner`,
      render: (row) =>
        row.owner_email ?? (
          <Text span size="sm" c="dimmed">
            <Trans>None</Trans>
          </Text>
        ),
    },
    {
      key: 'members',
      header: t`Members`,
      render: (row) => (
        <Text span size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {formatNumber(row.members_count)}
        </Text>
      ),
    },
    { key: 'seats', header: t`Seats used`, render: (row) => <SeatsUsed seats={row.seats} /> },
    {
      key: 'created',
      header: t`Created`,
      sortField: 'created_at',
      render: (row) => (
        <Text size="sm" component="time" dateTime={row.created_at} style={nowrap}>
          {formatDate(row.created_at)}
        </Text>
      ),
    },
    {
      key: 'details',
      header: t`Details`,
      card: 'actions',
      render: (row) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => detail.open(row.id)}
          aria-label={t`View the organization ${ph({ name: row.name })}`}
        >
          <Trans>View</Trans>
        </Button>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Organizations`}
      description={t`Customers’ teams: their owner, members and named seats, invitations and subscription.`}
      list={list}
      result={organisations}
      noun={t`organizations`}
      searchPlaceholder={t`Name or member e-mail`}
      filtered={list.filtered || query.sort !== LIST.defaultSort}
      noMatchesHint={t`Check the spelling of the name or e-mail, or clear the search.`}
      empty={{
        title: t`No organizations yet`,
        text: t`An organization appears here once a customer creates one to buy seats for a team.`,
      }}
      csv={{
        name: 'organizations',
        columns: ORGANISATIONS_CSV,
        fetchPage: pagesOf(readOrganisations, list.params),
      }}
      table={{
        columns,
        rowKey: (row) => row.id,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    >
      <OrganisationDrawer
        id={detail.id}
        known={organisations.page?.data.find((row) => row.id === detail.id)}
        onClose={detail.close}
      />
    </ListPage>
  );
}
