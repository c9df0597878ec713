import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Loader, Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { ReleaseChannel } from '../../../../../shared/api/distribution';
import type { UpdateState } from '../../../../../shared/bridge';
import { AlertIcon } from '../../../components/brand/icons';
import { SectionCard } from '../../../components/layout/section-card';
import { formatDateTime } from '../../../lib/format-date';
import { knownText } from '../../../lib/i18n/portal-i18n';
import {
  useCheckForDesktopUpdatesMutation,
  useGetDesktopUpdateChannelQuery,
  useGetDesktopUpdateStateQuery,
  useInstallDesktopUpdateMutation,
  useSetDesktopUpdateChannelMutation,
  updateMessages,
} from '../distribution-endpoints';

/** The anchor of this section, where the header's indicator leads. */
export const APP_UPDATES_SECTION_ID = 'app-updates';

const CHANNELS: { value: ReleaseChannel; label: MessageDescriptor }[] = [
  { value: 'stable', label: msg`Stable` },
  { value: 'beta', label: msg`Beta` },
];

/** One sentence on where the update stands, read out when it changes; in the language shown. */
function describe(state: UpdateState): string {
  switch (state.status) {
    case 'idle': {
      // Main's English (or the server's refusal), in the language shown.
      if (state.note) return knownText(state.note);
      if (!state.checked_at) return t`Not checked yet.`;
      const checked = formatDateTime(state.checked_at);
      return t`This app is up to date (checked ${checked}).`;
    }
    case 'checking':
      return t`Checking for updates…`;
    case 'available': {
      const version = state.version;
      return t`Version ${version} is available and is being downloaded.`;
    }
    case 'downloading': {
      const { version, percent } = state;
      return t`Downloading version ${version}: ${percent} %.`;
    }
    case 'downloaded': {
      const version = state.version;
      return t`Version ${version} is downloaded and verified. Restart the app to update.`;
    }
    case 'error':
      return knownText(state.message);
  }
}

/**
 * The desktop app's updates on the Profile page: where they stand, the download's progress, the
 * release notes before the restart, "Restart to update", "Check now" and the channel. Nothing on
 * the web, where the portal is always current.
 */
export function DesktopUpdatesCard() {
  const { t } = useLingui();
  const titleId = useId();
  const { data: state, error } = useGetDesktopUpdateStateQuery();
  const { data: channel } = useGetDesktopUpdateChannelQuery();
  const [checkNow, checking] = useCheckForDesktopUpdatesMutation();
  const [restart, installing] = useInstallDesktopUpdateMutation();
  const [setChannel, settingChannel] = useSetDesktopUpdateChannelMutation();
  const section = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  const shown = state !== null && state !== undefined;

  // Arriving from the header's indicator: bring the section into view and focus it.
  useEffect(() => {
    if (shown && hash === `#${APP_UPDATES_SECTION_ID}`) {
      section.current?.scrollIntoView?.({ block: 'start' });
      section.current?.focus();
    }
  }, [shown, hash]);

  if (!shown) {
    return error ? (
      <Alert color="red" icon={<AlertIcon />} title={t`App updates`}>
        {'message' in error ? String(error.message) : updateMessages.readFailed}
      </Alert>
    ) : null;
  }

  const busy = state.status === 'checking' || state.status === 'available' || state.status === 'downloading';
  const coming =
    state.status === 'available' || state.status === 'downloading' || state.status === 'downloaded'
      ? { version: state.version, notes: state.release_notes.trim() }
      : undefined;
  const comingVersion = coming?.version;
  const failure = checking.error ?? installing.error ?? settingChannel.error;

  return (
    <div
      id={APP_UPDATES_SECTION_ID}
      ref={section}
      tabIndex={-1}
      // Scrolled to from the header's sign: clear of the fixed header.
      style={{
        scrollMarginTop: 'calc(60px + var(--mantine-spacing-md))',
        borderRadius: 'var(--mantine-radius-default)',
      }}
    >
      <SectionCard
        headingId={titleId}
        title={t`App updates`}
        description={t`New versions download in the background; you choose when to restart.`}
      >
        <Group gap="xs" wrap="nowrap" align="flex-start">
          {state.status === 'checking' ? <Loader size="xs" mt={4} aria-hidden="true" /> : null}
          <Text size="sm" role="status" aria-live="polite" c={state.status === 'error' ? 'red' : undefined}>
            {describe(state)}
          </Text>
        </Group>
        {state.status === 'downloading' || state.status === 'available' ? (
          <Progress
            value={state.status === 'downloading' ? state.percent : 0}
            aria-label={t`Download of version ${comingVersion}`}
            animated
          />
        ) : null}
        {coming?.notes ? (
          <Stack gap={4}>
            <Text fw={600} size="sm">
              <Trans>What’s new in {comingVersion}</Trans>
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="release-notes">
              {coming.notes}
            </Text>
          </Stack>
        ) : null}
        {failure ? (
          <Text size="sm" c="red" role="alert">
            {'message' in failure ? String(failure.message) : t`Something went wrong`}
          </Text>
        ) : null}
        <Group gap="sm">
          {state.status === 'downloaded' ? (
            <Button onClick={() => void restart()} loading={installing.isLoading}>
              <Trans>Restart to update</Trans>
            </Button>
          ) : null}
          <Button
            variant="default"
            onClick={() => void checkNow()}
            loading={checking.isLoading}
            disabled={busy}
          >
            <Trans>Check now</Trans>
          </Button>
        </Group>
        <Stack gap={4}>
          <Text size="sm" fw={500} id={`${titleId}-channel`}>
            <Trans>Update channel</Trans>
          </Text>
          <SegmentedControl
            aria-labelledby={`${titleId}-channel`}
            data={CHANNELS.map(({ value, label }) => ({ value, label: t(label) }))}
            value={channel ?? 'stable'}
            onChange={(value) => void setChannel(value as ReleaseChannel)}
            disabled={channel === undefined || channel === null || settingChannel.isLoading}
            w={{ base: '100%', xs: 'auto' }}
          />
          <Text size="xs" c="dimmed">
            <Trans>Beta brings new versions before they reach everyone, and may be less polished.</Trans>
          </Text>
        </Stack>
      </SectionCard>
    </div>
  );
}
