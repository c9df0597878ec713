import { formatNumber } from '../../licenses';
import { formatDate } from '../../../lib/format-date';
import type { MessageDescriptor } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { CHANNEL_LABELS, PLATFORM_LABELS, ReleaseDialog, releaseName } from '../releases/release-dialog';

const STATES: Record<AdminRelease['state'], { label: MessageDescriptor; tone: StatusTone }> = {
  live: { label: msg`Live`, tone: 'positive' },
  rolling_out: { label: msg`Rolling out`, tone: 'info' },
  paused: { label: msg`Paused`, tone: 'caution' },
  yanked: { label: msg`Yanked`, tone: 'negative' },
  not_updatable: { label: msg`Download only`, tone: 'neutral' },
};

export default function AdminReleasesPage() {
  const { t, i18n } = useLingui();
  const [filter, setFilter] = useState<ReleaseFilter>({});
  const [editing, setEditing] = useState<string | null>(null);
  const answer = useListReleasesQuery(filter);
  const releases = answer.data?.releases ?? null;
  const shown = releases?.find((release) => release.id === editing) ?? null;

  const columns: Column<AdminRelease>[] = [
    {
      key: 'version',
      header: t`Version`,
      render: (release) => (
        <Stack gap={0}>
          <Text span size="sm" fw={600}>
            {release.version}
          </Text>
          <Text span size="xs" c="dimmed">
            {PLATFORM_LABELS[release.platform]} · {i18n._(CHANNEL_LABELS[release.channel])}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'state',
      header: t`State`,
      render: (release) => (
        <StatusBadge tone={STATES[release.state].tone} size="md">
          {i18n._(STATES[release.state].label)}
        </StatusBadge>
      ),
    },
    {
      key: 'rollout',
      header: t`Rollout`,
      align: 'right',
      render: (release) => `${release.rollout_percent} %`,
    },
    { key: 'checks', header: t`Checks`, align: 'right', render: (release) => formatNumber(release.checks) },
    {
      key: 'downloads',
      header: t`Downloads`,
      align: 'right',
      render: (release) => formatNumber(release.downloads),
    },
    {
      key: 'installs',
      header: t`Installs`,
      align: 'right',
      render: (release) => formatNumber(release.installs),
    },
    {
      key: 'published',
      header: t`Published`,
      render: (release) => <time dateTime={release.published_at}>{formatDate(release.published_at)}</time>,
    },
    {
      key: 'notes',
      header: t`Notes`,
      render: (release) => (
        <Text span size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
          {release.release_notes || '—'}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      render: (release) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => setEditing(release.id)}
          aria-label={t`Manage ${ph({ release: releaseName(i18n, release) })}`}
        >
          <Trans>Manage</Trans>
        </Button>
      ),
    },
  ];

  return (
    <HeaderedPage
      size="xl"
      title={t`Releases`}
      description={t`Desktop versions per platform and channel, the share of machines each is offered to, and what the apps report: update checks from machines running it, downloads through the update feed and machines that installed it.`}
    >
      <Group gap="md" wrap="wrap" align="flex-end">
        <NativeSelect
          label={t`Platform`}
          data={[
            { value: '', label: t`All platforms` },
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
          label={t`Channel`}
          data={[
            { value: '', label: t`Stable and beta` },
            ...RELEASE_CHANNELS.map((channel) => ({
              value: channel,
              label: i18n._(CHANNEL_LABELS[channel]),
            })),
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
        label={t`Releases`}
        columns={columns}
        rows={releases}
        rowKey={(release) => release.id}
        loading={answer.isFetching}
        error={failureOf(answer)}
        onRetry={() => void answer.refetch()}
        empty={
          <>
            <Text fw={600}>
              <Trans>No releases here yet</Trans>
            </Text>
            <Text size="sm" c="dimmed" ta="center">
              <Trans>
                Releases appear when a pipeline publishes them with{' '}
                <code>npm run cli -- publish-release</code>.
              </Trans>
            </Text>
          </>
        }
      />
      <ReleaseDialog release={shown} onClose={() => setEditing(null)} />
    </HeaderedPage>
  );
}
