import { ph, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Code, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AdminLicense } from '../../../../../shared/api/admin';
import { LICENSE_STATUSES } from '../../../../../shared/api/licenses';
import { portalPaths } from '../../../../../shared/routes';
import { BanIcon, DeviceIcon, PencilIcon, RefreshIcon } from '../../../components/brand/icons';
import type { Column } from '../../../components/data-table/data-table';
import { DateRangeFilter } from '../../../components/data-table/date-range-filter';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { ListPage } from '../../../components/data-table/list-page';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { HALF_ROW } from '../../../components/data-table/list-toolbar';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { formatDate, formatNumber, LicenseStatusBadge, STATUS_LABELS } from '../../licenses';
import { adminApi, useListLicensesQuery } from '../admin-endpoints';
import { ActivationsDrawer } from '../licenses/activations-drawer';
import { CreateLicenseModal } from '../licenses/create-license-modal';
import { EditLicenseModal } from '../licenses/edit-license-modal';
import { planLabel, usePlans } from '../licenses/plan-options';
import { RevokeLicenseModal } from '../licenses/revoke-license-modal';
import { TrialLicenseModal } from '../licenses/trial-license-modal';
import { trialSourceName } from '../licenses/trial-source';
import { UserPicker } from '../licenses/user-picker';
import { pagedResult, pagesOf } from '../query-answer';
import { createdRange, rangeCheckedParams } from '../users/date-range';
import { LicenseKeyText } from '../../../components/data/license-key-text';
import type { CsvColumn } from '../../../components/data-table/csv';

type LicenseFilter = 'status' | 'planId' | 'userId' | 'from' | 'to';

// The server's sort fields of GET /admin/licenses (adminLicenseListQuerySchema); newest first.
const LICENSES_LIST: ListQuerySpec<LicenseFilter> = {
  sortFields: ['created_at', 'updated_at', 'expires_at', 'user_email', 'plan_name'],
  defaultSort: '-created_at',
  filters: ['status', 'planId', 'userId', 'from', 'to'],
};

function Expiry({ license }: { license: AdminLicense }) {
  if (!license.expires_at)
    return (
      <Text size="sm" c="dimmed">
        <Trans>Never</Trans>
      </Text>
    );
  const past = new Date(license.expires_at).getTime() < Date.now();
  return (
    <Text
      size="sm"
      component="time"
      dateTime={license.expires_at}
      style={{ whiteSpace: 'nowrap' }}
      c={past ? 'dimmed' : undefined}
    >
      {formatDate(license.expires_at)}
    </Text>
  );
}

/** The licenses list as a CSV file: one row per license, times in ISO 8601 (UTC). */
const LICENSES_CSV: CsvColumn<AdminLicense>[] = [
  { header: 'License key', value: (license) => license.license_key },
  { header: 'Owner', value: (license) => license.user_email },
  { header: 'Plan', value: (license) => license.plan.name },
  { header: 'Status', value: (license) => license.status },
  { header: 'Seats bought', value: (license) => license.seats?.bought },
  { header: 'Seats held', value: (license) => license.seats?.held },
  { header: 'Machines in use', value: (license) => license.activations_used },
  { header: 'Machines allowed', value: (license) => license.max_activations },
  { header: 'Expires', value: (license) => license.expires_at },
  { header: 'Created', value: (license) => license.created_at },
  { header: 'Revoke reason', value: (license) => license.revoked_reason },
  { header: 'ID', value: (license) => license.license_id },
];

/** `/admin/licenses`: every license, with search, filters, sort and paging kept in the URL (`?userId=` included). */
export default function AdminLicensesPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LICENSES_LIST);
  const { query } = list;
  const range = rangeCheckedParams(list);
  const licenses = pagedResult(useListLicensesQuery(range.params), range.problem);
  const [readLicenses] = adminApi.endpoints.listLicenses.useLazyQuery();
  const { plans, error: plansError } = usePlans();

  const [creating, setCreating] = useState(false);
  const [machinesOf, setMachinesOf] = useState<AdminLicense | null>(null);
  const [editing, setEditing] = useState<AdminLicense | null>(null);
  const [revoking, setRevoking] = useState<AdminLicense | null>(null);
  const [trialOf, setTrialOf] = useState<AdminLicense | null>(null);

  const statusOptions = [
    { value: '', label: t`All statuses` },
    ...LICENSE_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
  ];
  const trialLine = (trial: NonNullable<AdminLicense['trial']>) => {
    const source = trialSourceName(trial.source, i18n);
    const date = formatDate(trial.ends_at);
    return trial.days_left > 0 ? t`${source} · ends ${date}` : t`${source} · ended ${date}`;
  };
  const seatsHeld = (seats: NonNullable<AdminLicense['seats']>) => {
    const held = formatNumber(seats.held);
    const bought = formatNumber(seats.bought);
    const count = seats.bought;
    return plural(count, { one: `${held} of ${bought} seat held`, other: `${held} of ${bought} seats held` });
  };
  const machines = (license: AdminLicense) => {
    const used = formatNumber(license.activations_used);
    const allowed = formatNumber(license.max_activations);
    return t`${used} / ${allowed} machines`;
  };

  const columns: Column<AdminLicense>[] = [
    {
      key: 'key',
      header: t`License key`,
      render: (license) => {
        const issued = formatDate(license.created_at);
        return (
          <Stack gap={2} align="flex-start">
            <Code fz="xs">
              <LicenseKeyText value={license.license_key} noWrap />
            </Code>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              <Trans>
                Issued <time dateTime={license.created_at}>{issued}</time>
              </Trans>
            </Text>
          </Stack>
        );
      },
    },
    {
      key: 'user',
      header: t`User`,
      sortField: 'user_email',
      render: (license) =>
        license.user_email ? (
          <Anchor
            component={Link}
            to={`${portalPaths.adminUsers}?search=${encodeURIComponent(license.user_email)}`}
            size="sm"
            // Long addresses wrap rather than push the actions out of view.
            style={{ display: 'inline-block', minWidth: 180, overflowWrap: 'anywhere' }}
          >
            {license.user_email}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>Deleted account</Trans>
          </Text>
        ),
    },
    {
      key: 'plan',
      header: t`Plan`,
      sortField: 'plan_name',
      render: (license) => <Text size="sm">{license.plan.name}</Text>,
    },
    {
      key: 'status',
      header: t`Status`,
      render: (license) => (
        <Stack gap={2} align="flex-start">
          <LicenseStatusBadge status={license.status} size="md" />
          {license.trial && (
            <Text size="xs" c="dimmed">
              {trialLine(license.trial)}
            </Text>
          )}
          {license.revoked_reason && (
            <Text size="xs" c="dimmed" lineClamp={2} maw={220} title={license.revoked_reason}>
              {t`Reason: ${ph({ reason: license.revoked_reason })}`}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'seats',
      header: t`Seats and machines`,
      align: 'right',
      // A Business license counts the seats its organization bought and holds; a personal one, machines.
      render: (license) =>
        license.seats ? (
          <>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {seatsHeld(license.seats)}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {machines(license)}
            </Text>
          </>
        ) : (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {machines(license)}
          </Text>
        ),
    },
    {
      key: 'expires',
      header: t`Expires`,
      sortField: 'expires_at',
      render: (license) => <Expiry license={license} />,
    },
    {
      key: 'actions',
      header: t`Actions`,
      align: 'right',
      render: (license) => {
        const revoked = license.status === 'revoked';
        const key = license.license_key;
        return (
          <RowActions>
            <RowAction
              label={t`Machines of ${key}`}
              tooltip={t`Machines`}
              icon={DeviceIcon}
              onClick={() => setMachinesOf(license)}
            />
            <RowAction
              label={t`Edit ${key}`}
              tooltip={revoked ? t`A revoked license cannot be changed` : t`Edit`}
              icon={PencilIcon}
              disabled={revoked}
              onClick={() => setEditing(license)}
            />
            {license.trial && !revoked ? (
              <RowAction
                label={t`Free trial of ${key}`}
                tooltip={t`Extend or end the trial`}
                icon={RefreshIcon}
                onClick={() => setTrialOf(license)}
              />
            ) : null}
            <RowAction
              label={t`Revoke ${key}`}
              tooltip={revoked ? t`Already revoked` : t`Revoke`}
              icon={BanIcon}
              danger
              disabled={revoked}
              onClick={() => setRevoking(license)}
            />
          </RowActions>
        );
      },
    },
  ];

  return (
    <ListPage
      title={t`Licenses`}
      description={t`Every license: its owner, plan, seats and machines.`}
      create={{ label: t`New license`, onClick: () => setCreating(true) }}
      list={list}
      result={licenses}
      noun={t`licenses`}
      searchPlaceholder={t`License key or owner e-mail`}
      filtered={list.filtered || query.sort !== LICENSES_LIST.defaultSort}
      filters={
        <>
          <FilterSelect
            list={list}
            filter="status"
            label={t`Status`}
            data={statusOptions}
            w={{ base: HALF_ROW, xs: 150 }}
          />
          <FilterSelect
            list={list}
            filter="planId"
            label={t`Plan`}
            data={[
              { value: '', label: t`All plans` },
              ...(plans ?? []).map((plan) => ({ value: plan.id, label: planLabel(plan, i18n) })),
              // A plan id from a link shows even before (or without) the plan list.
              ...(query.filters.planId && !plans?.some((plan) => plan.id === query.filters.planId)
                ? [{ value: query.filters.planId, label: plans ? t`Unknown plan` : t`Loading…` }]
                : []),
            ]}
            error={plansError ?? undefined}
            w={{ base: HALF_ROW, xs: 170 }}
          />
          <UserPicker
            label={t`User`}
            size="md"
            w={{ base: '100%', xs: 240 }}
            value={query.filters.userId || null}
            onChange={(id) => list.setFilter('userId', id ?? '')}
            placeholder={t`All users`}
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
        title: t`No licenses yet`,
        text: t`Licenses appear here as customers buy plans or activate the free Base plan, or issue one yourself.`,
      }}
      csv={
        range.problem
          ? undefined
          : { name: 'licenses', columns: LICENSES_CSV, fetchPage: pagesOf(readLicenses, list.params) }
      }
      table={{ columns, rowKey: (license) => license.license_id }}
    >
      <CreateLicenseModal
        opened={creating}
        userId={query.filters.userId || null}
        plans={plans}
        plansError={plansError}
        onClose={() => setCreating(false)}
        onCreated={() => setCreating(false)}
      />
      <EditLicenseModal
        license={editing}
        plans={plans}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
      <TrialLicenseModal license={trialOf} onClose={() => setTrialOf(null)} />
      <RevokeLicenseModal
        license={revoking}
        onClose={() => setRevoking(null)}
        onRevoked={() => setRevoking(null)}
      />
      <ActivationsDrawer license={machinesOf} onClose={() => setMachinesOf(null)} />
    </ListPage>
  );
}
