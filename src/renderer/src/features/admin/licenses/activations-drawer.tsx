import { Button, Code, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { skipToken } from '@reduxjs/toolkit/query/react';
import { useState } from 'react';
import type { AdminActivation, AdminLicense } from '../../../../../shared/api/admin';
import type { Activation, MachineChanges } from '../../../../../shared/api/licenses';
import { licenseMessages } from '../../../../../shared/messages';
import { StatusBadge } from '../../../components/data/status-badge';
import { RetryAlert } from '../../../components/data-table/retry-alert';
import { DetailDrawer } from '../../../components/drawer/detail-drawer';
import { ConfirmDialog } from '../../../components/forms/confirm-dialog';
import { useAppDispatch, useAppSelector } from '../../../lib/store-hooks';
import { formatDateTime, formatRelative, RenameMachineModal, seatsText } from '../../licenses';
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

/** The plan's cap on deactivations as it stands: used of allowed, and when the next is possible. */
export const deactivationsText = (changes: MachineChanges) =>
  `${changes.used} of ${changes.limit} deactivations used in ${changes.window_days} days` +
  (changes.next_possible_at ? ` · next possible ${formatDateTime(changes.next_possible_at)}` : '');

/** A machine's name for people: the one its owner gave, its device name, else the start of its hardware id. */
export const machineName = (activation: Activation) =>
  activation.label?.trim() ||
  activation.device_name?.trim() ||
  `Machine ${activation.hardware_id.slice(0, 12)}`;

const DEACTIVATED_BY: Record<NonNullable<Activation['deactivated_reason']>, string> = {
  user: 'by its user',
  admin: 'by an administrator',
  reclaimed: 'unused; its seat went to another machine',
  seat_removed: 'when its user’s seat was taken back',
};

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
  const active = activation.deactivated_at === null;
  const name = machineName(activation);
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
                Reports itself as {activation.device_name}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {[activation.platform, activation.app_version && `version ${activation.app_version}`]
                .filter(Boolean)
                .join(' · ') || 'Platform not reported'}
            </Text>
          </Stack>
          <StatusBadge tone={active ? 'positive' : 'neutral'} size="sm" style={{ flex: 'none' }}>
            {active ? 'Active' : 'Deactivated'}
          </StatusBadge>
        </Group>
        <Text size="xs" c="dimmed">
          Activated {formatDateTime(activation.activated_at)} · last seen{' '}
          <time dateTime={activation.last_seen_at} title={formatDateTime(activation.last_seen_at)}>
            {formatRelative(activation.last_seen_at)}
          </time>
          {activation.deactivated_at &&
            ` · deactivated ${formatDateTime(activation.deactivated_at)}${
              activation.deactivated_reason ? ` ${DEACTIVATED_BY[activation.deactivated_reason]}` : ''
            }`}
        </Text>
        <Code fz="xs" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }} title="Hardware id">
          {activation.hardware_id}
        </Code>
        {fingerprint && <MachineFingerprint activation={fingerprint} name={name} />}
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={onRename} aria-label={`Rename ${name}`}>
            Rename
          </Button>
          {active && (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={onDeactivate}
              aria-label={`Deactivate ${name}`}
            >
              Deactivate
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
    notifications.show({
      color: 'teal',
      title: 'Machine deactivated',
      message: `${machineName(confirming)} no longer holds a seat of ${updated.license_key}.`,
    });
    setConfirming(null);
    // The machines again, with the one just freed marked deactivated.
    void dispatch(
      adminApi.endpoints.getLicenseActivations.initiate(id, { subscribe: false, forceRefetch: true }),
    );
  };

  return (
    <>
      <DetailDrawer opened={license !== null} onClose={onClose} size="lg" title="Machines">
        {license && (
          <Stack gap="md">
            <Stack gap={2}>
              <Code fz="sm" style={{ whiteSpace: 'normal' }}>
                <LicenseKeyText value={license.license_key} />
              </Code>
              <Text size="sm" c="dimmed">
                {license.plan.name} · {license.user_email ?? 'deleted account'} ·{' '}
                {license.seats
                  ? `${license.seats.held} of ${license.seats.bought} seats held · ${license.seats.machines_per_seat} machine${license.seats.machines_per_seat === 1 ? '' : 's'} a seat · ${(current ?? license).activations_used} of ${(current ?? license).max_activations} machines in use`
                  : seatsText((current ?? license).activations_used, (current ?? license).max_activations)}
              </Text>
            </Stack>
            {current?.machine_changes && (
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Text size="sm" data-testid="admin-machine-changes">
                  {deactivationsText(current.machine_changes)}
                </Text>
                {current.machine_changes.used > 0 && (
                  <Button size="xs" variant="default" onClick={() => setResetting(true)}>
                    Reset count…
                  </Button>
                )}
              </Group>
            )}
            {error ? (
              <RetryAlert title={error} onRetry={() => void answer.refetch()}>
                The machines could not be loaded.
              </RetryAlert>
            ) : activations === null ? (
              <Stack gap="sm" aria-hidden="true">
                <Skeleton height={96} radius="md" />
                <Skeleton height={96} radius="md" />
              </Stack>
            ) : activations.length === 0 ? (
              <Text size="sm" c="dimmed">
                No machine has activated this license yet. Machines appear here when the owner activates the
                key in the desktop app.
              </Text>
            ) : (
              <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Machines">
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
        title={confirming ? `Deactivate ${machineName(confirming)}?` : 'Deactivate machine?'}
        confirmLabel="Deactivate machine"
        failureTitle="Could not deactivate the machine"
        fallback={licenseMessages.deactivationFailed}
        onConfirm={confirmDeactivation}
      >
        <Text size="sm">
          The machine loses its seat at once and is told an administrator deactivated it. Its user can
          activate it again while a seat is free.
        </Text>
      </ConfirmDialog>
    </>
  );
}
