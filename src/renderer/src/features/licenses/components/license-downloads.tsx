import { Trans, useLingui } from '@lingui/react/macro';
import {
  ActionIcon,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { License, Release } from '../../../../../shared/api/licenses';
import { LoadingBlock } from '../../../components/data/loading-block';
import { Notice } from '../../../components/data/notice';
import { RetryNotice } from '../../../components/data/retry-notice';
import { showToast } from '../../../components/data/toast';
import { CheckIcon, CopyIcon, DownloadIcon } from '../../../components/brand/icons';
import { failureMessage } from '../../../lib/api-errors';
import { useAppDispatch } from '../../../lib/store-hooks';
import { downloadInstaller, type DownloadProgress, isCancel, saveFile, sha256Hex } from '../downloads';
import { downloadMessages, licenseApi, useGetReleasesQuery } from '../licenses-endpoints';
import { formatBytes, formatDate, PLATFORM_NAMES } from '../license-format';

/** Links are signed for ten minutes; one about to expire is replaced before the download starts. */
const LINK_MARGIN_MS = 60_000;

type Transfer =
  | { state: 'idle' }
  | { state: 'downloading'; progress: DownloadProgress }
  | { state: 'verifying' }
  | { state: 'verified'; file: Blob; checksum: string }
  | { state: 'mismatch'; checksum: string }
  | { state: 'failed'; message: string };

const percentOf = ({ loaded, total }: DownloadProgress) =>
  total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;

/** One platform's installer: details, the download with its progress, and the checksum check. */
function ReleaseCard({ release, freshRelease }: { release: Release; freshRelease: () => Promise<Release> }) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [transfer, setTransfer] = useState<Transfer>({ state: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const platform = PLATFORM_NAMES[release.platform];

  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setTransfer({ state: 'downloading', progress: { loaded: 0, total: release.size_bytes } });
    try {
      const target =
        Date.parse(release.url_expires_at) - Date.now() < LINK_MARGIN_MS ? await freshRelease() : release;
      const data = await dispatch(
        downloadInstaller(target, {
          signal: controller.signal,
          onProgress: (progress) => setTransfer({ state: 'downloading', progress }),
        }),
      );
      setTransfer({ state: 'verifying' });
      const checksum = await sha256Hex(data);
      if (checksum !== target.sha256.toLowerCase()) {
        setTransfer({ state: 'mismatch', checksum });
        return;
      }
      const file = new Blob([data], { type: 'application/octet-stream' });
      setTransfer({ state: 'verified', file, checksum });
      saveFile(file, target.file_name);
      const fileName = target.file_name;
      showToast({
        title: t`Download complete`,
        message: t`${fileName} matches its published SHA-256 checksum.`,
      });
    } catch (error) {
      if (controller.signal.aborted || isCancel(error)) {
        setTransfer({ state: 'idle' });
        return;
      }
      setTransfer({ state: 'failed', message: failureMessage(error, downloadMessages.downloadFailed) });
    }
  };

  const busy = transfer.state === 'downloading' || transfer.state === 'verifying';
  const progress = transfer.state === 'downloading' ? transfer.progress : null;
  const version = release.version;
  const size = formatBytes(release.size_bytes);
  const published = formatDate(release.published_at);
  const fileName = release.file_name;
  const loaded = progress ? formatBytes(progress.loaded) : '';
  const total = progress ? formatBytes(progress.total) : '';
  const percent = progress ? percentOf(progress) : 0;
  const checksum = transfer.state === 'mismatch' ? transfer.checksum : '';

  return (
    <Card withBorder padding="lg" component="article" aria-label={t`${platform} installer`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Title order={3} size="h4">
              {platform}
            </Title>
            <Text size="sm" c="dimmed">
              <Trans>
                Version {version} · {size}
              </Trans>
            </Text>
          </div>
        </Group>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {release.file_name}
        </Text>
        <Text size="xs" c="dimmed">
          <Trans>Published {published}</Trans>
        </Text>

        <Stack gap={4}>
          <Text size="xs" fw={600} c="dimmed">
            SHA-256
          </Text>
          <Group gap={4} wrap="nowrap" align="flex-start">
            <Code
              fz="xs"
              style={{ wordBreak: 'break-all', whiteSpace: 'normal' }}
              data-testid="release-sha256"
            >
              {release.sha256}
            </Code>
            <CopyButton value={release.sha256}>
              {({ copied, copy }) => (
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'teal' : 'gray'}
                  onClick={copy}
                  aria-label={copied ? t`${platform} checksum copied` : t`Copy the ${platform} checksum`}
                >
                  {copied ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
                </ActionIcon>
              )}
            </CopyButton>
          </Group>
        </Stack>

        {transfer.state === 'verified' ? (
          <Button
            variant="light"
            leftSection={<DownloadIcon size={18} />}
            onClick={() => saveFile(transfer.file, release.file_name)}
          >
            <Trans>Save {platform} installer again</Trans>
          </Button>
        ) : (
          <Button
            leftSection={<DownloadIcon size={18} />}
            onClick={() => void start()}
            loading={busy}
            loaderProps={{ type: 'dots' }}
          >
            <Trans>Download for {platform}</Trans>
          </Button>
        )}
        {busy ? (
          <Button variant="subtle" color="gray" size="xs" onClick={() => abort.current?.abort()}>
            <Trans>Cancel the {platform} download</Trans>
          </Button>
        ) : null}

        <div aria-live="polite">
          {progress ? (
            <Stack gap={4}>
              <Progress
                value={percentOf(progress)}
                size="lg"
                animated
                aria-label={t`${platform} installer download`}
              />
              <Text size="xs" c="dimmed">
                <Trans>
                  {loaded} of {total} ({percent}%)
                </Trans>
              </Text>
            </Stack>
          ) : null}
          {transfer.state === 'verifying' ? (
            <Text size="sm">
              <Trans>Checking the SHA-256 checksum…</Trans>
            </Text>
          ) : null}
          {transfer.state === 'verified' ? (
            <Notice tone="success" title={t`Checksum verified`}>
              <Trans>
                The file’s SHA-256 matches the published checksum. Your browser saved it as {fileName}.
              </Trans>
            </Notice>
          ) : null}
        </div>
        {transfer.state === 'mismatch' ? (
          <Notice tone="danger" title={t`Checksum mismatch`} urgent>
            <Trans>
              The downloaded file does not match the published checksum, so it was not saved: it may be
              damaged or tampered with. Try again; if it happens again, contact support.
            </Trans>
            <Code block mt="xs" fz="xs" style={{ whiteSpace: 'normal', wordBreak: 'break-all' }}>
              <Trans>Got {checksum}</Trans>
            </Code>
          </Notice>
        ) : null}
        {transfer.state === 'failed' ? (
          <Notice tone="danger" title={t`Download failed`} urgent>
            {transfer.message}
          </Notice>
        ) : null}
      </Stack>
    </Card>
  );
}

/**
 * "Download the desktop app": the newest installer for each platform, downloaded with a progress
 * bar, checked against its SHA-256 with Web Crypto, then saved.
 */
export function LicenseDownloads({ license, headingId }: { license: License; headingId: string }) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const arg = { licenseId: license.license_id, status: license.status };
  const { currentData: releases, error, isError, refetch } = useGetReleasesQuery(arg);

  // Links are signed for a short while: a download about to outlive its link asks for fresh ones.
  const freshRelease = async (platform: Release['platform']) => {
    const latest = await dispatch(
      licenseApi.endpoints.getReleases.initiate(arg, { forceRefetch: true, subscribe: false }),
    ).unwrap();
    const release = latest.find((item) => item.platform === platform);
    const name = PLATFORM_NAMES[platform];
    if (!release) throw new Error(t`No desktop release is available for ${name} any more`);
    return release;
  };

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId} id="downloads">
      <div>
        <Title order={2} id={headingId} size="h3">
          <Trans>Download the desktop app</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          <Trans>
            The newest installer for each system. Each download is checked against its published SHA-256
            checksum before it is saved.
          </Trans>
        </Text>
      </div>
      {isError ? (
        <RetryNotice
          tone={license.status === 'active' ? 'danger' : 'caution'}
          urgent={false}
          title={
            license.status === 'active' ? t`Downloads are not available` : t`Downloads need an active license`
          }
          message={failureMessage(error, downloadMessages.fetchReleasesFailed)}
          onRetry={license.status === 'active' ? () => void refetch() : undefined}
        />
      ) : !releases ? (
        <LoadingBlock label={t`Loading the downloads`}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {[0, 1, 2].map((item) => (
              <Skeleton key={item} height={220} radius="lg" />
            ))}
          </SimpleGrid>
        </LoadingBlock>
      ) : releases.length === 0 ? (
        <Card withBorder padding="lg">
          <Text size="sm">
            <Trans>No desktop release has been published yet. Check back soon.</Trans>
          </Text>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: Math.min(3, releases.length) }}>
          {releases.map((release) => (
            <ReleaseCard
              key={release.platform}
              release={release}
              freshRelease={() => freshRelease(release.platform)}
            />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
