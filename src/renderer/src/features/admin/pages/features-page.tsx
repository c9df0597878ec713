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

const KIND_OPTIONS = [
  { value: '', label: 'All kinds' },
  ...FEATURE_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] })),
];

const created = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });

/** Why a feature cannot be deleted while packages include it (the server would refuse with 409). */
function inUseReason(packages: string[]): string | undefined {
  if (packages.length === 0) return undefined;
  const them = packages.length === 1 ? 'that package' : 'those packages';
  return `Included in ${listFormat.format(packages)}: remove it from ${them} first, on the Packages page.`;
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

  /** `null`: closed; `'new'`: creating; a feature: editing it. */
  const [editing, setEditing] = useState<Feature | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Feature | null>(null);

  const columns: Column<Feature>[] = [
    {
      key: 'name',
      header: 'Name',
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
      header: 'Key',
      sortField: 'key',
      render: (feature) => <Code fz="xs">{feature.key}</Code>,
    },
    {
      key: 'kind',
      header: 'Kind',
      sortField: 'kind',
      render: (feature) => (
        <Stack gap={2}>
          <StatusBadge
            tone={feature.kind === 'metered' ? 'info' : 'neutral'}
            size="md"
            style={{ minWidth: 'max-content' }}
          >
            {KIND_LABELS[feature.kind]}
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
      header: 'Packages',
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
      header: 'Used this month',
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
      header: 'Created',
      sortField: 'created_at',
      render: (feature) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
          {created.format(new Date(feature.created_at))}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (feature) => (
        <RowActions align="left">
          <RowAction
            label={`Edit ${feature.name}`}
            tooltip="Edit"
            icon={PencilIcon}
            onClick={() => setEditing(feature)}
          />
          <RowAction
            label={`Delete ${feature.name}`}
            tooltip="Delete"
            icon={TrashIcon}
            danger
            unavailable={inUseReason(usage.get(feature.feature_id)?.plan_names ?? [])}
            onClick={() => setDeleting(feature)}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage
      title="Features"
      description="The entitlements packages grant: on/off features, and metered ones counted against a limit per day or month."
      create={{ label: 'New feature', onClick: () => setEditing('new') }}
      list={list}
      result={features}
      noun="features"
      header={
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
          <StatCard label="Features" loading={!stats.stats && !stats.error}>
            <Text fz={28} fw={700} lh={1.1}>
              {stats.stats ? formatCount(stats.stats.total) : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              {stats.error ?? 'In the catalog'}
            </Text>
          </StatCard>
          <StatCard label="On/off features" loading={!stats.stats && !stats.error}>
            <Text fz={28} fw={700} lh={1.1}>
              {stats.stats ? formatCount(stats.stats.boolean) : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              Included in a package or not
            </Text>
          </StatCard>
          <StatCard label="Metered features" loading={!stats.stats && !stats.error}>
            <Text fz={28} fw={700} lh={1.1}>
              {stats.stats ? formatCount(stats.stats.metered) : '—'}
            </Text>
            <Text size="sm" c="dimmed">
              {stats.stats
                ? `${formatCount(stats.stats.by_feature.reduce((sum, entry) => sum + entry.usage_this_month, 0))} units used this month`
                : 'Counted against limits'}
            </Text>
          </StatCard>
        </SimpleGrid>
      }
      searchPlaceholder="Name, key or description"
      filters={
        <FilterSelect
          list={list}
          filter="kind"
          label="Kind"
          data={KIND_OPTIONS}
          style={{ flex: '1 1 150px' }}
        />
      }
      noMatchesHint="Try another name or key, or clear the filters."
      empty={{
        title: 'No features yet',
        text: 'Create the first feature, then include it in packages with a limit.',
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
        title={deleting ? `Delete feature ${deleting.name}?` : 'Delete feature'}
        confirmLabel="Delete feature"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          await deleteFeature(deleting.feature_id).unwrap();
          notifications.show({
            color: 'teal',
            title: 'Feature deleted',
            message: `${deleting.name} (${deleting.key}) and its recorded usage were deleted.`,
          });
          setDeleting(null);
        }}
      >
        {deleting ? (
          <Stack gap="xs">
            <Text size="sm">
              <strong>{deleting.name}</strong> (<Code fz="xs">{deleting.key}</Code>) is removed from the
              catalog and its recorded usage is deleted. This cannot be undone.
            </Text>
          </Stack>
        ) : null}
      </ConfirmDialog>
    </ListPage>
  );
}
