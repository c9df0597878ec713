import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { FloatingHolder } from '../../../../../shared/api/floating';
import type { Column } from '../../../components/data-table/columns';
import { ResponsiveTable } from '../../../components/data-table/responsive-table';
import { Notice } from '../../../components/data/notice';
import { StatusBadge } from '../../../components/data/status-badge';
import { showToast } from '../../../components/data/toast';
import { failureMessage, isApiFailure } from '../../../lib/api-errors';
import {
  useGetFloatingPeaksQuery,
  useGetFloatingSeatsQuery,
  useReleaseFloatingSeatMutation,
} from '../floating-endpoints';
import { formatDateTime } from '../license-format';
import { ThisMachineFloatingSeat } from './this-machine-floating-seat';
import { SERIES_COLORS, UsageChart } from './usage-chart';

const PEAK_DAYS = 30;

const holderName = (holder: FloatingHolder) => holder.device_name || t`Unnamed machine`;

function LastCheckIn({ at }: { at: string }) {
  const checkIn = formatDateTime(at);
  return <Trans>Unless renewed; last check-in {checkIn}</Trans>;
}

/**
 * A floating license's seats: the machines holding one now (each may be freed by hand) and the most
 * held at once per day. Nothing shows for a license that is not floating.
 */
export function FloatingSeatsSection({ licenseId, headingId }: { licenseId: string; headingId: string }) {
  const { t } = useLingui();
  const seats = useGetFloatingSeatsQuery(licenseId);
  const peaks = useGetFloatingPeaksQuery({ licenseId, days: PEAK_DAYS }, { skip: !seats.data });
  const [release, { isLoading: pending }] = useReleaseFloatingSeatMutation();
  const [target, setTarget] = useState<FloatingHolder | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // A node-locked license answers that it is not floating: its page has no such section.
  if (isApiFailure(seats.error) && seats.error.code === 'license_not_floating') return null;
  if (!seats.data) return null;
  const { in_use: holders, seats: total, lease_minutes, max_borrow_days } = seats.data;

  const confirm = async () => {
    if (!target) return;
    setFailure(null);
    const result = await release({ licenseId, seatId: target.seat_id });
    if (!result.data) {
      setFailure(failureMessage(result.error, t`Could not free the seat`));
      return;
    }
    const holder = holderName(target);
    showToast({ title: t`Seat freed`, message: t`${holder} no longer holds a seat.` });
    setTarget(null);
  };

  const freeLabel = (holder: FloatingHolder) => {
    const name = holderName(holder);
    return t`Free the seat of ${name}`;
  };

  const columns: Column<FloatingHolder>[] = [
    {
      key: 'machine',
      header: t`Machine`,
      render: (holder) => (
        <Stack gap={2}>
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {holderName(holder)}
          </Text>
          {holder.member ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {holder.member.name}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'since',
      header: t`Since`,
      render: (holder) => <Text size="sm">{formatDateTime(holder.checked_out_at)}</Text>,
    },
    {
      key: 'until',
      header: t`Held until`,
      // When the seat comes back by itself: a borrowed seat when its borrow ends, whatever the app
      // does; a held one when its lease ends, unless a check-in renews it first.
      render: (holder) =>
        holder.borrowed_until ? (
          <Stack gap={2} align="flex-start">
            <Text size="sm">{formatDateTime(holder.borrowed_until)}</Text>
            <StatusBadge tone="info" size="sm">
              <Trans>Borrowed for offline use</Trans>
            </StatusBadge>
          </Stack>
        ) : (
          <Stack gap={2}>
            <Text size="sm">{formatDateTime(holder.held_until)}</Text>
            <Text size="xs" c="dimmed">
              <LastCheckIn at={holder.last_heartbeat_at} />
            </Text>
          </Stack>
        ),
    },
    {
      key: 'seat',
      header: t`Seat`,
      card: 'actions',
      render: (holder) => (
        <Button
          variant="light"
          color="red"
          size="xs"
          onClick={() => setTarget(holder)}
          aria-label={freeLabel(holder)}
        >
          <Trans>Free seat</Trans>
        </Button>
      ),
    },
  ];

  const inUse = holders.length;
  const targetName = target ? holderName(target) : '';
  const points = (peaks.data?.days ?? []).map(({ day, peak }) => ({ day: day.slice(5), peak }));

  return (
    <Stack gap="md" component="section" aria-labelledby={headingId}>
      <div>
        <Title order={2} size="h3" id={headingId}>
          <Trans>Floating seats</Trans>
        </Title>
        <Text size="sm" c="dimmed">
          {max_borrow_days > 0
            ? t`Any machine may run while a seat is free: ${inUse} of ${total} in use now. A seat comes back when the app closes, ${lease_minutes} minutes after its machine stops checking in, or when a borrow ends (borrowed for at most ${max_borrow_days} days).`
            : t`Any machine may run while a seat is free: ${inUse} of ${total} in use now. A seat comes back when the app closes, ${lease_minutes} minutes after its machine stops checking in, or when a borrow ends.`}
        </Text>
      </div>
      <Card withBorder padding="md">
        <Stack gap="md">
          <ThisMachineFloatingSeat licenseId={licenseId} />
          {holders.length === 0 ? (
            <Text size="sm" data-testid="no-floating-holders">
              <Trans>No machine holds a seat right now.</Trans>
            </Text>
          ) : (
            <ResponsiveTable
              what={t`Machines holding a seat`}
              labelledBy={headingId}
              columns={columns}
              rows={holders}
              rowKey={(holder) => holder.seat_id}
              minWidth={620}
            />
          )}
        </Stack>
      </Card>
      <Card withBorder padding="md">
        <UsageChart
          caption={t`Most seats in use at once, per day (last ${PEAK_DAYS} days)`}
          showCaption
          data={points}
          series={[{ name: 'peak', label: t`Seats in use`, color: SERIES_COLORS[0] ?? 'iris.6' }]}
          unit={plural(total, { one: 'seat', other: 'seats' })}
        />
      </Card>

      <Modal
        opened={target !== null}
        onClose={() => (pending ? undefined : setTarget(null))}
        title={target ? t`Free the seat of ${targetName}?` : t`Free seat`}
        closeButtonProps={{ 'aria-label': t`Close` }}
        centered
      >
        {target ? (
          <Stack gap="md">
            <Text size="sm">
              {target.borrowed_until
                ? t`This machine borrowed its seat for offline use: freed now, it may run offline until its borrow ends while another machine takes the seat.` +
                  ' '
                : ''}
              <Trans>
                Another machine can take the seat at once; the app there asks for a seat again at its next
                check-in.
              </Trans>
            </Text>
            {failure ? (
              <Notice tone="danger" title={t`Could not free the seat`} urgent>
                {failure}
              </Notice>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setTarget(null)} disabled={pending}>
                <Trans>Cancel</Trans>
              </Button>
              <Button color="red" onClick={() => void confirm()} loading={pending}>
                <Trans>Free seat</Trans>
              </Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
}
