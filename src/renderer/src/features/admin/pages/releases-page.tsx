import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DOWNLOAD_PLATFORMS, type DownloadPlatform } from '../../../../../shared/api/licenses';
import {
  type AdminRelease,
  RELEASE_CHANNELS,
  type ReleaseChannel,
} from '../../../../../shared/api/distribution';
import { StatusBadge, type StatusTone } from '../../../components/data/status-badge';
import { type Column, DataTable } from '../../../components/data-table/data-table';
import { HeaderedPage } from '../../../components/layout/page-header';
import { failureOf } from '../query-answer';
import { type ReleaseFilter, useListReleasesQuery } from '../releases/admin-releases-endpoints';
import { PLATFORM_LABELS, ReleaseDialog, releaseName } from '../releases/release-dialog';

const STATES: Record<AdminRelease['state'], { label: string; tone: StatusTone }> = {
  live: { label: 'Live', tone: 'positive' },
  rolling_out: { label: 'Rolling out', tone: 'info' },
  paused: { label: 'Paused', tone: 'caution' },
  yanked: { label: 'Yanked', tone: 'negative' },
  not_updatable: { label: 'Download only', tone: 'neutral' },
};

const CHANNEL_LABELS: Record<ReleaseChannel, string> = { stable: 'Stable', beta: 'Beta' };

const published = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const count = new Intl.NumberFormat();

export default function AdminReleasesPage() {
  const [filter, setFilter] = useState<ReleaseFilter>({});
  const [editing, setEditing] = useState<string | null>(null);
  const answer = useListReleasesQuery(filter);
  const releases = answer.data?.releases ?? null;
  const shown = releases?.find((release) => release.id === editing) ?? null;

  const columns: Column<AdminRelease>[] = [
    {
      key: 'version',
      header: 'Version',
      render: (release) => (
        <Stack gap={0}>
          <Text span size="sm" fw={600}>
            {release.version}
          </Text>
          <Text span size="xs" c="dimmed">
            {PLATFORM_LABELS[release.platform]} · {CHANNEL_LABELS[release.channel]}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'state',
      header: 'State',
      render: (release) => (
        <StatusBadge tone={STATES[release.state].tone} size="md">
          {STATES[release.state].label}
        </StatusBadge>
      ),
    },
    {
      key: 'rollout',
      header: 'Rollout',
      align: 'right',
      render: (release) => `${release.rollout_percent} %`,
    },
    { key: 'checks', header: 'Checks', align: 'right', render: (release) => count.format(release.checks) },
    {
      key: 'downloads',
      header: 'Downloads',
      align: 'right',
      render: (release) => count.format(release.downloads),
    },
    {
      key: 'installs',
      header: 'Installs',
      align: 'right',
      render: (release) => count.format(release.installs),
    },
    {
      key: 'published',
      header: 'Published',
      render: (release) => (
        <time dateTime={release.published_at}>{published.format(new Date(release.published_at))}</time>
      ),
    },
    {
      key: 'notes',
      header: 'Notes',
      render: (release) => (
        <Text span size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
          {release.release_notes || '—'}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      render: (release) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => setEditing(release.id)}
          aria-label={`Manage ${releaseName(release)}`}
        >
          Manage
        </Button>
      ),
    },
  ];

  return (
    <HeaderedPage
      size="xl"
      title="Releases"
      description="Desktop versions per platform and channel, the share of machines each is offered to, and what the apps report: update checks from machines running it, downloads through the update feed and machines that installed it."
    >
      <Group gap="md" wrap="wrap" align="flex-end">
        <NativeSelect
          label="Platform"
          data={[
            { value: '', label: 'All platforms' },
            ...DOWNLOAD_PLATFORMS.map((platform) => ({ value: platform, label: PLATFORM_LABELS[platform] })),
          ]}
          value={filter.platform ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value as DownloadPlatform | '';
            setFilter(({ platform: _previous, ...rest }) => (value ? { ...rest, platform: value } : rest));
          }}
          w={{ base: '100%', xs: 200 }}
        />
        <NativeSelect
          label="Channel"
          data={[
            { value: '', label: 'Stable and beta' },
            ...RELEASE_CHANNELS.map((channel) => ({ value: channel, label: CHANNEL_LABELS[channel] })),
          ]}
          value={filter.channel ?? ''}
          onChange={(event) => {
            const value = event.currentTarget.value as ReleaseChannel | '';
            setFilter(({ channel: _previous, ...rest }) => (value ? { ...rest, channel: value } : rest));
          }}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      <DataTable
        label="Releases"
        columns={columns}
        rows={releases}
        rowKey={(release) => release.id}
        loading={answer.isFetching}
        error={failureOf(answer)}
        onRetry={() => void answer.refetch()}
        empty={
          <>
            <Text fw={600}>No releases here yet</Text>
            <Text size="sm" c="dimmed" ta="center">
              Releases appear when a pipeline publishes them with <code>npm run cli -- publish-release</code>.
            </Text>
          </>
        }
      />
      <ReleaseDialog release={shown} onClose={() => setEditing(null)} />
    </HeaderedPage>
  );
}
