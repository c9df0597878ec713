import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { failureMessage } from '../../../lib/api-errors';
import {
  useBorrowThisMachineSeatMutation,
  useGetThisMachineSeatQuery,
  useReturnThisMachineSeatMutation,
} from '../floating-endpoints';
import { formatDateTime } from '../license-format';

/**
 * In the desktop app: where this machine's floating seat stands, with "Borrow for offline use…"
 * (main keeps the seat for the days chosen, through quit and without the network) or the return
 * of a borrowed seat. Nothing on the web, or for a machine without a floating license.
 */
export function ThisMachineFloatingSeat({ licenseId }: { licenseId: string }) {
  const { data: seat } = useGetThisMachineSeatQuery();
  const [borrow, { isLoading: borrowing }] = useBorrowThisMachineSeatMutation();
  const [giveBack, { isLoading: returning }] = useReturnThisMachineSeatMutation();
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState<number | string>(3);
  const [failure, setFailure] = useState<string | null>(null);

  if (!seat || seat.status === 'not_floating') return null;
  const maxDays = seat.max_borrow_days ?? 0;

  const confirm = async () => {
    setFailure(null);
    const result = await borrow({ licenseId, days: Number(days) });
    if (!result.data || result.data.status !== 'held' || !result.data.borrowed_until) {
      setFailure(result.data?.message ?? failureMessage(result.error, 'Could not borrow the seat'));
      return;
    }
    showToast({ title: 'Seat borrowed', message: result.data.message });
    setOpen(false);
  };

  const returnSeat = async () => {
    const result = await giveBack({ licenseId });
    showToast(
      result.data
        ? { title: 'Borrowed seat returned', message: result.data.message }
        : { title: 'Could not return the seat', message: failureMessage(result.error, 'Try again.') },
    );
  };

  return (
    <Stack gap="xs" data-testid="this-machine-floating-seat">
      <Text size="sm">
        <Text span fw={600}>
          This machine:{' '}
        </Text>
        {seat.message}
      </Text>
      <Group gap="xs">
        {seat.status === 'held' && seat.borrowed_until ? (
          <Button variant="default" size="xs" onClick={() => void returnSeat()} loading={returning}>
            Return borrowed seat
          </Button>
        ) : seat.status === 'held' && maxDays > 0 ? (
          <Button variant="default" size="xs" onClick={() => setOpen(true)}>
            Borrow for offline use…
          </Button>
        ) : null}
      </Group>

      <Modal
        opened={open}
        onClose={() => (borrowing ? undefined : setOpen(false))}
        title="Borrow this seat for offline use"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            The seat stays this machine’s for the days you choose, without the network and after the app
            closes; it counts as in use until you return it or the days end
            {seat.held_until ? ` (held now until ${formatDateTime(seat.held_until)})` : ''}.
          </Text>
          <NumberInput
            label="Days"
            description={`At most ${maxDays} ${maxDays === 1 ? 'day' : 'days'}.`}
            min={1}
            max={maxDays}
            allowDecimal={false}
            allowNegative={false}
            value={days}
            onChange={setDays}
            data-autofocus
          />
          {failure ? (
            <Notice tone="danger" title="Could not borrow the seat" urgent>
              {failure}
            </Notice>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)} disabled={borrowing}>
              Cancel
            </Button>
            <Button
              onClick={() => void confirm()}
              loading={borrowing}
              disabled={!(Number(days) >= 1 && Number(days) <= maxDays)}
            >
              Borrow
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
