import { formatDate } from '../../../lib/format-date';
import { formattingLocale } from '../../../lib/i18n/portal-i18n';
import type { I18n } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { type LabelledOption, optionsIn } from '../options-in';
import { Trans, useLingui } from '@lingui/react/macro';
import { Code, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { FEATURE_KINDS, type Feature } from '../../../../../shared/api/features';
import { PencilIcon, TrashIcon } from '../../../components/brand/icons';
import { StatCard } from '../../../components/data/stat-card';
import { StatusBadge } from '../../../components/data/status-badge';
import type { Column } from '../../../components/data-table/data-table';
import { ListPage } from '../../../components/data-table/list-page';
import { FilterSelect } from '../../../components/data-table/filter-select';
import { type ListQuerySpec, useListQuery } from '../../../components/data-table/list-query';
import { RowAction, RowActions } from '../../../components/data-table/row-actions';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import {
  adminApi,
  useDeleteFeatureMutation,
  useGetFeatureStatsQuery,
  useListFeaturesQuery,
} from '../admin-endpoints';
import { formatCount, KIND_LABELS, meteredUnit } from '../features/feature-format';
import { FeatureFormModal } from '../features/feature-form-modal';
import { failureOf, pagedResult, pagesOf } from '../query-answer';
import type { CsvColumn } from '../../../components/data-table/csv';

const LIST: ListQuerySpec<'kind'> = {
  sortFields: ['name', 'key', 'kind', 'created_at'],
  defaultSort: 'name',
  filters: ['kind'],
};

const KIND_OPTIONS: LabelledOption[] = [
  { value: '', label: msg`All kinds` },
  ...FEATURE_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] })),
];

/** Why a feature cannot be deleted while packages include it (the server would refuse with 409). */
function inUseReason(packages: string[], i18n: I18n): string | undefined {
  if (packages.length === 0) return undefined;
  const names = new Intl.ListFormat(formattingLocale(), { type: 'conjunction' }).format(packages);
  return packages.length === 1
    ? i18n._(msg`Included in ${names}: remove it from that package first, on the Packages page.`)
    : i18n._(msg`Included in ${names}: remove it from those packages first, on the Packages page.`);
}

/** The features list as a CSV file. */
const FEATURES_CSV: CsvColumn<Feature>[] = [
  { header: 'Name', value: (feature) => feature.name },
  { header: 'Key', value: (feature) => feature.key },
  { header: 'Kind', value: (feature) => feature.kind },
  { header: 'Period', value: (feature) => feature.period },
  { header: 'Unit', value: (feature) => feature.unit },
  { header: 'Description', value: (feature) => feature.description },
  { header: 'Created', value: (feature) => feature.created_at },
  { header: 'ID', value: (feature) => feature.feature_id },
];

export default function AdminFeaturesPage() {
  const { t, i18n } = useLingui();
  const list = useListQuery(LIST);
  const { query } = list;
  const features = pagedResult(useListFeaturesQuery(list.params));
  const [readFeatures] = adminApi.endpoints.listFeatures.useLazyQuery();
  // Counts per kind, and per feature its packages and this month's use.
  const statsAnswer = useGetFeatureStatsQuery();
  const stats = { stats: statsAnswer.data ?? null, error: failureOf(statsAnswer) };
  const usage = useMemo(
    () => new Map((statsAnswer.data?.by_feature ?? []).map((entry) => [entry.feature_id, entry])),
    [statsAnswer.data],
  );
  const [deleteFeature] = useDeleteFeatureMutation();
  const usedThisMonth = formatCount(
    (stats.stats?.by_feature ?? []).reduce((sum, entry) => sum + entry.usage_this_month, 0),
  );

  /** `null`: closed; `'new'`: creating; a feature: editing it. */
  const [editing, setEditing] = useState<Feature | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Feature | null>(null);
  const deletingName = deleting?.name;
  const deletingKey = deleting?.key;

  const columns: Column<Feature>[] = [
    {
      key: 'name',
      header: t`Name`,
      sortField: 'name',
      render: (feature) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {feature.name}
          </Text>
          {feature.description ? (
            <Text size="xs" c="dimmed" lineClamp={2} maw={320}>
              {feature.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'key',
      header: t`Key`,
      sortField: 'key',
      render: (feature) => <Code fz="xs">{feature.key}</Code>,
    },
    {
      key: 'kind',
      header: t`Kind`,
      sortField: 'kind',
      render: (feature) => (
        <Stack gap={2}>
          <StatusBadge
            tone={feature.kind === 'metered' ? 'info' : 'neutral'}
            size="md"
            style={{ minWidth: 'max-content' }}
          >
            {i18n._(KIND_LABELS[feature.kind])}
          </StatusBadge>
          {meteredUnit(feature) ? (
            <Text size="xs" c="dimmed">
              {meteredUnit(feature)}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'packages',
      header: t`Packages`,
      align: 'right',
      render: (feature) => {
        const entry = usage.get(feature.feature_id);
        return entry ? (
          formatCount(entry.plans)
        ) : (
          <Text span c="dimmed">
            —
          </Text>
        );
      },
    },
    {
      key: 'usage',
      header: t`Used this month`,
      align: 'right',
      render: (feature) => {
        const entry = usage.get(feature.feature_id);
        if (feature.kind !== 'metered' || !entry)
          return (
            <Text span c="dimmed">
              —
            </Text>
          );
        return formatCount(entry.usage_this_month);
      },
    },
    {
      key: 'created',
      header: t`Created`,
      sortField: 'created_at',
      render: (feature) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(feature.created_at)}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      render: (feature) => (
        <RowActions align="left">
          <RowAction
            label={t`Edit ${ph({ name: feature.name })}`}
            tooltip={t`Edit`}
            icon={PencilIcon}
            onClick={() => setEditing(feature)}
          />
          <RowAction
            label={t`Delete ${ph({ name: feature.name })}`}
            tooltip={t`Delete`}
            icon={TrashIcon}
            danger
            unavailable={inUseReason(usage.get(feature.feature_id)?.plan_names ?? [], i18n)}
            onClick={() => setDeleting(feature)}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title={t`Features`}
      description={t`The entitlements packages grant: on/off features, and metered ones counted against a limit per day or month.`}
      create={{ label: t`New feature`, onClick: () => setEditing('new') }}
      list={list}
      result={features}
      noun={t`features`}
      header={
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
          <StatCard label={t`Features`} loading={!stats.stats && !stats.error}>
            <Text fz={28} fw={700} lh={1.1}>
              {stats.stats ? formatCount(stats.stats.total) : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              {stats.error ?? t`In the catalog`}
            </Text>
          </StatCard>
          <StatCard label={t`On/off features`} loading={!stats.stats && !stats.error}>
            <Text fz={28} fw={700} lh={1.1}>
              {stats.stats ? formatCount(stats.stats.boolean) : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              <Trans>Included in a package or not</Trans>
            </Text>
          </StatCard>
          <StatCard label={t`Metered features`} loading={!stats.stats && !stats.error}>
            <Text fz={28} fw={700} lh={1.1}>
              {stats.stats ? formatCount(stats.stats.metered) : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              {stats.stats ? t`${usedThisMonth} units used this month` : t`Counted against limits`}
            </Text>
          </StatCard>
        </SimpleGrid>
      }
      searchPlaceholder={t`Name, key or description`}
      filters={
        <FilterSelect
          list={list}
          filter="kind"
          label={t`Kind`}
          data={optionsIn(i18n, KIND_OPTIONS)}
          style={{ flex: '1 1 150px' }}
        />
      }
      noMatchesHint={t`Try another name or key, or clear the filters.`}
      empty={{
        title: t`No features yet`,
        text: t`Create the first feature, then include it in packages with a limit.`,
      }}
      csv={{ name: 'features', columns: FEATURES_CSV, fetchPage: pagesOf(readFeatures, list.params) }}
      table={{
        columns,
        rowKey: (feature) => feature.feature_id,
        skeletonRows: Math.min(query.perPage, 10),
      }}
    >
      <FeatureFormModal
        feature={editing === 'new' ? null : editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />

      <ConfirmDialog
        centered
        opened={deleting !== null}
        title={deleting ? t`Delete feature ${ph({ name: deleting.name })}?` : t`Delete feature`}
        confirmLabel={t`Delete feature`}
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await deleteFeature(deleting.feature_id).unwrap();
          notifications.show({
            color: 'teal',
            title: t`Feature deleted`,
            message: t`${ph({ name: deleting.name })} (${ph({ key: deleting.key })}) and its recorded usage were deleted.`,
          });
          setDeleting(null);
        }}
      >
        {deleting ? (
          <Stack gap="xs">
            <Text size="sm">
              <Trans>
                <strong>{deletingName}</strong> (<Code fz="xs">{deletingKey}</Code>) is removed from the
                catalog and its recorded usage is deleted. This cannot be undone.
              </Trans>
            </Text>
          </Stack>
        ) : null}
      </ConfirmDialog>
    </ListPage>
  );
}
