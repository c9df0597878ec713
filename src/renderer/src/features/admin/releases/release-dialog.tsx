import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Divider, Group, NumberInput, Stack, Switch, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useEffect, useState } from 'react';
import type { DownloadPlatform } from '../../../../../shared/api/licenses';
import {
  type AdminRelease,
  type AdminUpdateReleaseBody,
  MAX_RELEASE_NOTES,
  type ReleaseChannel,
} from '../../../../../shared/api/distribution';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { FormDialog } from '../../../components/forms/form-dialog';
import { failureMessage } from '../../../lib/api-errors';
import { adminReleaseMessages, useUpdateReleaseMutation } from './admin-releases-endpoints';

export const PLATFORM_LABELS: Record<DownloadPlatform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};

export const CHANNEL_LABELS: Record<ReleaseChannel, MessageDescriptor> = {
  stable: msg`Stable`,
  beta: msg`Beta`,
};

/** The channel as a release's name ends with it, in lower case in English ("1.5.0 (Linux, stable)"). */
const CHANNEL_IN_NAME: Record<ReleaseChannel, MessageDescriptor> = { stable: msg`stable`, beta: msg`beta` };

/** A release as its version, platform and channel, the channel in the language shown. */
export const releaseName = (i18n: I18n, release: Pick<AdminRelease, 'platform' | 'channel' | 'version'>) =>
  `${release.version} (${PLATFORM_LABELS[release.platform]}, ${i18n._(CHANNEL_IN_NAME[release.channel])})`;

/** Only what the administrator changed is sent, so an untouched rollout is never "lowered". */
function changesOf(
  release: AdminRelease,
  rollout: number,
  paused: boolean,
  notes: string,
): AdminUpdateReleaseBody {
  return {
    ...(rollout !== release.rollout_percent ? { rollout_percent: rollout } : {}),
    ...(paused !== (release.paused_at !== null) ? { paused } : {}),
    ...(notes !== release.release_notes ? { release_notes: notes } : {}),
  };
}

/**
 * A release's rollout, pause and notes, and yanking it. The rollout can only go up (the server
 * refuses less), so the field starts at the current value and goes no lower.
 */
export function ReleaseDialog({ release, onClose }: { release: AdminRelease | null; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const [update, { isLoading }] = useUpdateReleaseMutation();
  const [rollout, setRollout] = useState(100);
  const [paused, setPaused] = useState(false);
  const [notes, setNotes] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [yanking, setYanking] = useState(false);

  useEffect(() => {
    if (!release) return;
    setRollout(release.rollout_percent);
    setPaused(release.paused_at !== null);
    setNotes(release.release_notes);
    setFailure(null);
  }, [release]);

  if (!release) return null;
  const yanked = release.yanked_at !== null;
  const changes = changesOf(release, rollout, paused, notes);
  const name = releaseName(i18n, release);
  const version = release.version;
  const platform = PLATFORM_LABELS[release.platform];
  const channel = i18n._(CHANNEL_IN_NAME[release.channel]);
  const fileName = release.file_name;

  const submit = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    setFailure(null);
    try {
      await update({ id: release.id, body: changes }).unwrap();
      notifications.show({ color: 'teal', title: t`Release changed`, message: name });
      onClose();
    } catch (error) {
      setFailure(failureMessage(error, adminReleaseMessages.updateFailed));
    }
  };

  const yank = async () => {
    await update({ id: release.id, body: { yanked: true } }).unwrap();
    notifications.show({ color: 'teal', title: t`Release yanked`, message: name });
    setYanking(false);
    onClose();
  };

  return (
    <>
      <FormDialog
        opened={!yanking}
        onClose={onClose}
        title={t`Release ${version}`}
        size="lg"
        intro={
          <Text size="sm" c="dimmed">
            <Trans>
              {platform}, {channel} channel · {fileName}
            </Trans>
          </Text>
        }
        onSubmit={(event) => void submit(event)}
        failure={failure}
        failureTitle={t`Not changed`}
        submitLabel={t`Save`}
        submitting={isLoading}
        submitDisabled={yanked || Object.keys(changes).length === 0}
        holdWhileSubmitting
      >
        <NumberInput
          label={t`Rollout`}
          description={t`Share of machines offered this release. It can only be raised: pause it to stop offering it.`}
          suffix=" %"
          min={release.rollout_percent}
          max={100}
          step={5}
          clampBehavior="strict"
          allowDecimal={false}
          value={rollout}
          onChange={(value) => setRollout(typeof value === 'number' ? value : release.rollout_percent)}
          disabled={yanked}
        />
        <Switch
          label={t`Paused`}
          description={t`A paused release is offered to no new machine; machines already on it keep it.`}
          checked={paused}
          onChange={(event) => setPaused(event.currentTarget.checked)}
          disabled={yanked}
        />
        <Textarea
          label={t`Release notes`}
          description={t`Shown in the app before it restarts into this version.`}
          rows={6}
          maxLength={MAX_RELEASE_NOTES}
          value={notes}
          onChange={(event) => setNotes(event.currentTarget.value)}
          disabled={yanked}
        />
        <Divider />
        <Stack gap={4}>
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="sm" fw={600}>
              <Trans>Yank this release</Trans>
            </Text>
            <Button
              color="red"
              variant="light"
              onClick={() => setYanking(true)}
              disabled={yanked || isLoading}
            >
              <Trans>Yank…</Trans>
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            {yanked
              ? t`This release was yanked: it is offered to no machine and cannot change any more.`
              : t`Withdraws it for good: it is never offered again, its file can no longer be downloaded, and machines running it are offered the previous good release.`}
          </Text>
        </Stack>
      </FormDialog>
      <ConfirmDialog
        opened={yanking}
        title={t`Yank ${name}?`}
        confirmLabel={t`Yank release`}
        onConfirm={yank}
        onClose={() => setYanking(false)}
        failureTitle={t`Not yanked`}
        fallback={adminReleaseMessages.updateFailed}
      >
        <Text size="sm">
          <Trans>
            No machine is offered {version} again and its file answers as withdrawn. Machines running it go
            back to the newest good release below it. This cannot be undone.
          </Trans>
        </Text>
      </ConfirmDialog>
    </>
  );
}
