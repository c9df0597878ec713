import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Code, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import type { AdminActivation, AdminLicense } from '../../../../../shared/api/admin';
import type { Activation, MachineChanges } from '../../../../../shared/api/licenses';
import { licenseMessages } from '../../../../../shared/screen-messages';
import { StatusBadge } from '../../../components/data/status-badge';
import { RetryAlert } from '../../../components/data-table/retry-alert';
import { DetailDrawer } from '../../../components/drawer/detail-drawer';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { formatDateTime, formatNumber, formatRelative, RenameMachineModal, seatsText } from '../../licenses';
import {
  adminApi,
  useDeactivateActivationMutation,
  useGetLicenseActivationsQuery,
  useGetLicenseQuery,
  useRenameActivationMutation,
} from '../admin-endpoints';
import { selectAdmin } from '../admin-slice';
import { failureOf } from '../query-answer';
import { LicenseKeyText } from '../../../components/data/license-key-text';
import { ResetDeactivationsModal } from './reset-deactivations-modal';
import { MachineFingerprint } from './machine-fingerprint';

export interface ActivationsDrawerProps {
  /** The license whose machines to show (from the list row); null keeps the drawer closed. */
  license: AdminLicense | null;
  onClose: () => void;
}

/**
 * The plan's cap on deactivations as it stands, in the language shown: used of allowed, and when
 * the next is possible.
 */
export function deactivationsText(changes: MachineChanges): string {
  const used = formatNumber(changes.used);
  const days = changes.window_days;
  const limit = changes.limit;
  const usedOfLimit = plural(limit, {
    one: `${used} of # deactivation used`,
    other: `${used} of # deactivations used`,
  });
  const text = plural(days, { one: `${usedOfLimit} in # day`, other: `${usedOfLimit} in # days` });
  if (!changes.next_possible_at) return text;
  const next = formatDateTime(changes.next_possible_at);
  return t`${text} · next possible ${next}`;
}

/** A machine's name for people: the one its owner gave, its device name, else the start of its hardware id. */
export function machineName(activation: Activation): string {
  const named = activation.label?.trim() || activation.device_name?.trim();
  if (named) return named;
  const id = activation.hardware_id.slice(0, 12);
  return t`Machine ${id}`;
}

/** How a machine was deactivated, after the time (render with the shown language's `i18n._`). */
const DEACTIVATED_BY: Record<NonNullable<Activation['deactivated_reason']>, MessageDescriptor> = {
  user: msg`by its user`,
  admin: msg`by an administrator`,
  reclaimed: msg`unused; its seat went to another machine`,
  seat_removed: msg`when its user’s seat was taken back`,
};

/** An organization's license: "3 of 5 seats held · 2 machines a seat · 4 of 10 machines in use". */
function orgSeatsText(
  seats: NonNullable<AdminLicense['seats']>,
  machinesUsed: number,
  machinesAllowed: number,
): string {
  const held = formatNumber(seats.held);
  const inUse = formatNumber(machinesUsed);
  const bought = seats.bought;
  const perSeatCount = seats.machines_per_seat;
  const seatsHeld = plural(bought, { one: `${held} of # seat held`, other: `${held} of # seats held` });
  const perSeat = plural(perSeatCount, { one: '# machine a seat', other: '# machines a seat' });
  const machines = plural(machinesAllowed, {
    one: `${inUse} of # machine in use`,
    other: `${inUse} of # machines in use`,
  });
  return `${seatsHeld} · ${perSeat} · ${machines}`;
}

function ActivationCard({
  activation,
  fingerprint,
  onDeactivate,
  onRename,
}: {
  activation: Activation;
  /** The machine as the machines list has it, with its fingerprint; undefined until it is read. */
  fingerprint: AdminActivation | undefined;
  onDeactivate: () => void;
  onRename: () => void;
}) {
  const { t, i18n } = useLingui();
  const active = activation.deactivated_at === null;
  const name = machineName(activation);
  const deviceName = activation.device_name;
  const version = activation.app_version;
  const platform = [activation.platform, version && t`version ${version}`].filter(Boolean).join(' · ');
  const activatedAt = formatDateTime(activation.activated_at);
  const deactivatedAt = activation.deactivated_at ? formatDateTime(activation.deactivated_at) : '';
  const how = activation.deactivated_reason ? i18n._(DEACTIVATED_BY[activation.deactivated_reason]) : '';
  const lastSeen = (
    <time dateTime={activation.last_seen_at} title={formatDateTime(activation.last_seen_at)}>
      {formatRelative(activation.last_seen_at)}
    </time>
  );
  return (
    <Paper component="li" withBorder p="sm" radius="md">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Stack gap={2} miw={0}>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
            {activation.label && activation.device_name && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                <Trans>Reports itself as {deviceName}</Trans>
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {platform || <Trans>Platform not reported</Trans>}
            </Text>
          </Stack>
          <StatusBadge tone={active ? 'positive' : 'neutral'} size="sm" style={{ flex: 'none' }}>
            {active ? <Trans>Active</Trans> : <Trans>Deactivated</Trans>}
          </StatusBadge>
        </Group>
        <Text size="xs" c="dimmed">
          <Trans>
            Activated {activatedAt} · last seen {lastSeen}
          </Trans>
          {deactivatedAt
            ? how
              ? t` · deactivated ${deactivatedAt} ${how}`
              : t` · deactivated ${deactivatedAt}`
            : null}
        </Text>
        <Code fz="xs" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }} title={t`Hardware id`}>
          {activation.hardware_id}
        </Code>
        {fingerprint && <MachineFingerprint activation={fingerprint} name={name} />}
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={onRename} aria-label={t`Rename ${name}`}>
            <Trans>Rename</Trans>
          </Button>
          {active && (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={onDeactivate}
              aria-label={t`Deactivate ${name}`}
            >
              <Trans>Deactivate</Trans>
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * A license's machines (`GET /admin/licenses/{id}`, which carries them), active ones first, each
 * with Deactivate behind a confirmation. The machines attach to the admin slice's selected license.
 */
export function ActivationsDrawer({ license, onClose }: ActivationsDrawerProps) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const selected = useAppSelector(selectAdmin).selectedLicense;
  const id = license?.license_id;
  // Through the slice: the license becomes its selectedLicense, which freeing a seat updates.
  const answer = useGetLicenseQuery(id ?? skipToken);
  // The machines list carries each machine's fingerprint and its history, which the detail does not.
  const machines = useGetLicenseActivationsQuery(id ?? skipToken);
  const fingerprints = new Map(
    (machines.currentData && machines.currentData.licenseId === id
      ? machines.currentData.activations
      : []
    ).map((machine) => [machine.activation_id, machine]),
  );
  const error = failureOf(answer);
  const [confirming, setConfirming] = useState<Activation | null>(null);
  const [deactivate] = useDeactivateActivationMutation();
  const [renaming, setRenaming] = useState<Activation | null>(null);
  const [renameActivation] = useRenameActivationMutation();
  const [resetting, setResetting] = useState(false);

  const current = selected && selected.license_id === id ? selected : (answer.currentData ?? null);
  const activations = current?.activations ?? null;

  const confirmDeactivation = async () => {
    if (!id || !confirming) return;
    const updated = await deactivate({ id, activationId: confirming.activation_id }).unwrap();
    const machine = machineName(confirming);
    const key = updated.license_key;
    notifications.show({
      color: 'teal',
      title: t`Machine deactivated`,
      message: t`${machine} no longer holds a seat of ${key}.`,
    });
    setConfirming(null);
    // The machines again, with the one just freed marked deactivated.
    void dispatch(
      adminApi.endpoints.getLicenseActivations.initiate(id, { subscribe: false, forceRefetch: true }),
    );
  };

  const shown = current ?? license;
  const plan = license?.plan.name;
  const who = license?.user_email ?? t`deleted account`;
  const confirmingName = confirming ? machineName(confirming) : '';

  return (
    <>
      <DetailDrawer opened={license !== null} onClose={onClose} size="lg" title={t`Machines`}>
        {license && (
          <Stack gap="md">
            <Stack gap={2}>
              <Code fz="sm" style={{ whiteSpace: 'normal' }}>
                <LicenseKeyText value={license.license_key} />
              </Code>
              <Text size="sm" c="dimmed">
                {plan} · {who} ·{' '}
                {license.seats
                  ? orgSeatsText(license.seats, shown?.activations_used ?? 0, shown?.max_activations ?? 0)
                  : seatsText(shown?.activations_used ?? 0, shown?.max_activations ?? 0)}
              </Text>
            </Stack>
            {current?.machine_changes && (
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm" data-testid="admin-machine-changes">
                  {deactivationsText(current.machine_changes)}
                </Text>
                {current.machine_changes.used > 0 && (
                  <Button size="xs" variant="default" onClick={() => setResetting(true)}>
                    <Trans>Reset count…</Trans>
                  </Button>
                )}
              </Group>
            )}
            {error ? (
              <RetryAlert title={error} onRetry={() => void answer.refetch()}>
                <Trans>The machines could not be loaded.</Trans>
              </RetryAlert>
            ) : activations === null ? (
              <Stack gap="sm" aria-hidden="true">
                <Skeleton height={96} radius="md" />
                <Skeleton height={96} radius="md" />
              </Stack>
            ) : activations.length === 0 ? (
              <Text size="sm" c="dimmed">
                <Trans>
                  No machine has activated this license yet. Machines appear here when the owner activates the
                  key in the desktop app.
                </Trans>
              </Text>
            ) : (
              <Stack
                gap="sm"
                component="ul"
                m={0}
                p={0}
                style={{ listStyle: 'none' }}
                aria-label={t`Machines`}
              >
                {activations.map((activation) => (
                  <ActivationCard
                    key={activation.activation_id}
                    activation={activation}
                    fingerprint={fingerprints.get(activation.activation_id)}
                    onDeactivate={() => setConfirming(activation)}
                    onRename={() => setRenaming(activation)}
                  />
                ))}
              </Stack>
            )}
          </Stack>
        )}
      </DetailDrawer>
      {current && (
        <RenameMachineModal
          license={current}
          activation={renaming}
          currentName={renaming ? machineName(renaming) : ''}
          onClose={() => setRenaming(null)}
          save={async (label) => {
            if (!id || !renaming) return;
            await renameActivation({ id, activationId: renaming.activation_id, label }).unwrap();
            // The machines again, with the new name.
            void dispatch(
              adminApi.endpoints.getLicenseActivations.initiate(id, { subscribe: false, forceRefetch: true }),
            );
          }}
        />
      )}
      <ResetDeactivationsModal license={resetting ? current : null} onClose={() => setResetting(false)} />
      <ConfirmDialog
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? t`Deactivate ${confirmingName}?` : t`Deactivate machine?`}
        confirmLabel={t`Deactivate machine`}
        failureTitle={t`Could not deactivate the machine`}
        fallback={licenseMessages.deactivationFailed}
        onConfirm={confirmDeactivation}
      >
        <Text size="sm">
          <Trans>
            The machine loses its seat at once and is told an administrator deactivated it. Its user can
            activate it again while a seat is free.
          </Trans>
        </Text>
      </ConfirmDialog>
    </>
  );
}
