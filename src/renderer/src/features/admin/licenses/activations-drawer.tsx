import { Alert, Button, Code, Drawer, Group, Modal, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import type { AdminLicense } from '../../../../../shared/api/admin';
import type { Activation } from '../../../../../shared/api/licenses';
import { adminMessages, licenseMessages } from '../../../../../shared/messages';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { AlertIcon } from '../../../components/brand/icons';
import { StatusBadge } from '../../../components/data/status-badge';
import { FormAlert } from '../../../components/forms/form-alert';
import { formatDateTime, formatRelative, seatsText } from '../../license/license-format';
import {
  deactivateActivation,
  fetchAdminLicense,
  fetchLicenseActivations,
  selectAdmin,
} from '../admin-slice';

export interface ActivationsDrawerProps {
  /** The license whose machines to show (from the list row); null keeps the drawer closed. */
  licence: AdminLicense | null;
  onClose: () => void;
  /** A seat was freed: the list's seat count changed. */
  onChanged: (licence: AdminLicense) => void;
}

/** A machine's name for people: its device name, else the start of its hardware id. */
export const machineName = (activation: Activation) =>
  activation.device_name?.trim() || `Machine ${activation.hardware_id.slice(0, 12)}`;

const DEACTIVATED_BY: Record<NonNullable<Activation['deactivated_reason']>, string> = {
  user: 'by its user',
  admin: 'by an administrator',
  reclaimed: 'unused; its seat went to another machine',
};

function ActivationCard({ activation, onDeactivate }: { activation: Activation; onDeactivate: () => void }) {
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
        {active && (
          <Group justify="flex-end">
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={onDeactivate}
              aria-label={`Deactivate ${name}`}
            >
              Deactivate
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * A license's machines (`GET /admin/licenses/{id}`, which carries them), active ones first, each
 * with Deactivate behind a confirmation. The machines attach to the admin slice's selected license.
 */
export function ActivationsDrawer({ licence, onClose, onChanged }: ActivationsDrawerProps) {
  const dispatch = useAppDispatch();
  const selected = useAppSelector((state) => selectAdmin(state).selectedLicense);
  const id = licence?.license_id;
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [confirming, setConfirming] = useState<Activation | null>(null);
  const [deactivating, setDeactivating] = useState(false);
  const [failure, setFailure] = useState<string>();

  useEffect(() => {
    if (!id) return;
    setError(null);
    dispatch(fetchAdminLicense(id))
      .unwrap()
      .catch((message: unknown) =>
        setError(typeof message === 'string' ? message : adminMessages.fetchLicenseFailed),
      );
  }, [id, attempt, dispatch]);

  const current = selected && selected.license_id === id ? selected : null;
  const activations = current?.activations ?? null;

  const deactivate = async () => {
    if (!id || !confirming) return;
    setFailure(undefined);
    setDeactivating(true);
    try {
      const updated = await dispatch(
        deactivateActivation({ id, activationId: confirming.activation_id }),
      ).unwrap();
      notifications.show({
        color: 'teal',
        title: 'Machine deactivated',
        message: `${machineName(confirming)} no longer holds a seat of ${updated.license_key}.`,
      });
      setConfirming(null);
      onChanged(updated);
      await dispatch(fetchLicenseActivations(id));
    } catch (error) {
      setFailure(typeof error === 'string' ? error : licenseMessages.deactivationFailed);
    } finally {
      setDeactivating(false);
    }
  };

  return (
    <>
      <Drawer opened={licence !== null} onClose={onClose} position="right" size="lg" title="Machines">
        {licence && (
          <Stack gap="md">
            <Stack gap={2}>
              <Code fz="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
                {licence.license_key}
              </Code>
              <Text size="sm" c="dimmed">
                {licence.plan.name} · {licence.user_email ?? 'deleted account'} ·{' '}
                {seatsText((current ?? licence).activations_used, (current ?? licence).max_activations)}
              </Text>
            </Stack>
            {error ? (
              <Alert color="red" icon={<AlertIcon />} title={error} role="alert">
                <Group justify="space-between" gap="sm">
                  <Text size="sm">The machines could not be loaded.</Text>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => setAttempt((value) => value + 1)}
                  >
                    Retry
                  </Button>
                </Group>
              </Alert>
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
                    onDeactivate={() => {
                      setFailure(undefined);
                      setConfirming(activation);
                    }}
                  />
                ))}
              </Stack>
            )}
          </Stack>
        )}
      </Drawer>
      <Modal
        opened={confirming !== null}
        onClose={() => setConfirming(null)}
        title={confirming ? `Deactivate ${machineName(confirming)}?` : 'Deactivate machine?'}
      >
        <Stack gap="md">
          {failure && <FormAlert title="Could not deactivate the machine">{failure}</FormAlert>}
          <Text size="sm">
            The machine loses its seat at once and is told an administrator deactivated it. Its user can
            activate it again while a seat is free.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(null)} data-autofocus>
              Cancel
            </Button>
            <Button color="red.9" loading={deactivating} onClick={() => void deactivate()}>
              Deactivate machine
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
