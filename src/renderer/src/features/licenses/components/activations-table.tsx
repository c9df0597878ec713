import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { Activation, License } from '../../../../../shared/api/licenses';
import { licenseMessages } from '../../../../../shared/screen-messages';
import type { Column } from '../../../components/data-table/columns';
import { ResponsiveTable } from '../../../components/data-table/responsive-table';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { StatusBadge } from '../../../components/data/status-badge';
import { failureMessage } from '../../../lib/api-errors';
import { useAppDispatch } from '../../../lib/store-hooks';
import { PencilIcon } from '../../../components/brand/icons';
import {
  recheckLicenseStatus,
  useDeactivateLicenseMutation,
  useRenameMachineMutation,
} from '../licenses-endpoints';
import { formatDate, formatDateTime, formatRelative, seatsText } from '../license-format';
import { RenameMachineModal } from './rename-machine-modal';

/**
 * The name a machine goes by: the one its owner gave it, else what it reported, else the end of
 * its hardware id.
 */
export function machineName(
  activation: Pick<Activation, 'device_name' | 'hardware_id'> & { label?: string | null },
): string {
  const named = activation.label || activation.device_name;
  if (named) return named;
  const end = activation.hardware_id.slice(-6);
  return t`Machine …${end}`;
}

const REASONS: Record<NonNullable<Activation['deactivated_reason']>, MessageDescriptor> = {
  user: msg`by you`,
  admin: msg`by an administrator`,
  reclaimed: msg`unused, its seat was reclaimed`,
  seat_removed: msg`when your seat in the organization was taken back`,
};

interface ActivationsTableProps {
  license: License;
  activations: Activation[];
  /** This machine's hardware id, to mark its row; null while unknown. */
  thisHardwareId: string | null;
  headingId: string;
}

function MachineCell({ activation, isThis }: { activation: Activation; isThis: boolean }) {
  // A named machine shows, under its name, the name its device reports.
  const reported = activation.label ? activation.device_name : null;
  const shortId = activation.hardware_id.slice(-10);
  return (
    <Stack gap={2}>
      <Group gap={6} wrap="wrap">
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="machine-name">
          {machineName(activation)}
        </Text>
        {isThis ? (
          <Badge variant="light" color="iris" size="sm" tt="none">
            <Trans>This machine</Trans>
          </Badge>
        ) : null}
      </Group>
      {reported ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} data-testid="machine-reported-name">
          {reported}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed" ff="monospace" title={activation.hardware_id}>
        <Trans>ID …{shortId}</Trans>
      </Text>
    </Stack>
  );
}

function AppVersion({ version }: { version: string }) {
  return (
    <Text size="xs" c="dimmed">
      <Trans>App {version}</Trans>
    </Text>
  );
}

/**
 * The machines of a license: name, platform, when it was activated and last seen, with a
 * Deactivate button (after a confirmation) that frees the machine's seat.
 */
export function ActivationsTable({ license, activations, thisHardwareId, headingId }: ActivationsTableProps) {
  const { t } = useLingui();
  const dispatch = useAppDispatch();
  const [deactivate, { isLoading: pending }] = useDeactivateLicenseMutation();
  const [renameMachine] = useRenameMachineMutation();
  const [renaming, setRenaming] = useState<Activation | null>(null);
  const [target, setTarget] = useState<Activation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [showFormer, setShowFormer] = useState(false);

  const active = activations.filter((item) => item.deactivated_at === null);
  const former = activations
    .filter((item) => item.deactivated_at !== null)
    .sort((a, b) => (b.deactivated_at ?? '').localeCompare(a.deactivated_at ?? ''));
  const isThis = (activation: Activation) => activation.hardware_id === thisHardwareId;

  const close = () => {
    if (pending) return;
    setTarget(null);
    setFailure(null);
  };

  const confirm = async () => {
    if (!target) return;
    setFailure(null);
    const result = await deactivate({ licenseId: license.license_id, activationId: target.activation_id });
    if (!result.data) {
      setFailure(failureMessage(result.error, licenseMessages.deactivationFailed));
      return;
    }
    const updated = result.data;
    const machine = machineName(target);
    const seats = seatsText(updated.activations_used, updated.max_activations);
    showToast({ title: t`Machine deactivated`, message: t`${machine} no longer uses a seat: ${seats}.` });
    // This machine's own status changes when its seat goes.
    if (isThis(target)) void dispatch(recheckLicenseStatus());
    setTarget(null);
  };

  const columns: Column<Activation>[] = [
    {
      key: 'machine',
      header: t`Machine`,
      render: (activation) => <MachineCell activation={activation} isThis={isThis(activation)} />,
    },
    {
      key: 'platform',
      header: t`Platform`,
      render: (activation) => (
        <>
          <Text size="sm">{activation.platform || t`Not reported`}</Text>
          {activation.app_version ? <AppVersion version={activation.app_version} /> : null}
        </>
      ),
    },
    {
      key: 'activated',
      header: t`Activated`,
      render: (activation) => <Text size="sm">{formatDate(activation.activated_at)}</Text>,
    },
    {
      key: 'lastSeen',
      header: t`Last seen`,
      render: (activation) => (
        <Tooltip label={formatDateTime(activation.last_seen_at)} withArrow>
          <Text size="sm" component="span" tabIndex={0}>
            {formatRelative(activation.last_seen_at)}
          </Text>
        </Tooltip>
      ),
    },
    {
      key: 'seat',
      header: t`Seat`,
      // On a phone's card the seat's buttons are in sight at the card's foot.
      card: 'actions',
      render: (activation) => (
        <Group gap="xs" wrap="wrap" align="flex-start">
          <Button
            variant="default"
            size="xs"
            leftSection={<PencilIcon size={14} />}
            onClick={() => setRenaming(activation)}
            aria-label={renameLabel(activation)}
          >
            <Trans>Rename</Trans>
          </Button>
          {seatOf(activation)}
        </Group>
      ),
    },
  ];

  function renameLabel(activation: Activation): string {
    const machine = machineName(activation);
    return isThis(activation) ? t`Rename ${machine} (this machine)` : t`Rename ${machine}`;
  }

  function deactivateLabel(activation: Activation): string {
    const machine = machineName(activation);
    return isThis(activation) ? t`Deactivate ${machine} (this machine)` : t`Deactivate ${machine}`;
  }

  function seatOf(activation: Activation) {
    return activation.deactivated_at !== null ? (
      <Stack gap={2}>
        <StatusBadge tone="neutral" size="md">
          <Trans>Deactivated</Trans>
        </StatusBadge>
        <Text size="xs" c="dimmed">
          {formatDate(activation.deactivated_at)}
          {activation.deactivated_reason ? `, ${t(REASONS[activation.deactivated_reason])}` : ''}
        </Text>
      </Stack>
    ) : (
      <Button
        variant="light"
        color="red"
        size="xs"
        onClick={() => setTarget(activation)}
        aria-label={deactivateLabel(activation)}
      >
        <Trans>Deactivate</Trans>
      </Button>
    );
  }

  const targetName = target ? machineName(target) : '';
  const seats = license.max_activations;
  const formerCount = former.length;
  const plan = license.plan.name;
  return (
    <>
      {active.length === 0 ? (
        <Text size="sm" data-testid="no-machines">
          {plural(seats, {
            one: 'No machine uses this license right now: all # seat is free.',
            other: 'No machine uses this license right now: all # seats are free.',
          })}
        </Text>
      ) : null}
      {active.length > 0 || showFormer ? (
        <ResponsiveTable
          what={t`Machines`}
          labelledBy={headingId}
          columns={columns}
          rows={showFormer ? [...active, ...former] : active}
          rowKey={(activation) => activation.activation_id}
          minWidth={680}
        />
      ) : null}
      {former.length > 0 ? (
        <Group>
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setShowFormer((value) => !value)}
            aria-expanded={showFormer}
          >
            {showFormer
              ? t`Hide deactivated machines`
              : plural(formerCount, {
                  one: 'Show # deactivated machine',
                  other: 'Show # deactivated machines',
                })}
          </Button>
        </Group>
      ) : null}

      <RenameMachineModal
        license={license}
        activation={renaming}
        currentName={renaming ? machineName(renaming) : ''}
        onClose={() => setRenaming(null)}
        save={(label) =>
          renaming
            ? renameMachine({
                licenseId: license.license_id,
                activationId: renaming.activation_id,
                label,
              }).unwrap()
            : Promise.resolve()
        }
      />

      <Modal
        opened={target !== null}
        onClose={close}
        title={target ? t`Deactivate ${targetName}?` : t`Deactivate machine`}
        closeButtonProps={{ 'aria-label': t`Close` }}
        centered
      >
        {target ? (
          <Stack gap="md">
            <Text size="sm">
              {isThis(target) ? t`This is the machine you are using now.` + ' ' : ''}
              <Trans>
                It gives up its seat on the {plan} license at once, and the app there stops working until the
                machine is activated again. You can use the seat on another machine straight away.
              </Trans>
            </Text>
            {failure ? (
              <Notice tone="danger" title={t`Could not deactivate`} urgent>
                {failure}
              </Notice>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={pending}>
                <Trans>Cancel</Trans>
              </Button>
              <Button color="red.9" onClick={() => void confirm()} loading={pending}>
                <Trans>Deactivate</Trans>
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
