import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Notice } from '../../../components/data/notice';
import { showToast } from '../../../components/data/toast';
import { failureMessage } from '../../../lib/api-errors';
import { knownText } from '../../../lib/i18n/portal-i18n';
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
  const { t } = useLingui();
  const { data: seat } = useGetThisMachineSeatQuery();
  const [borrow, { isLoading: borrowing }] = useBorrowThisMachineSeatMutation();
  const [giveBack, { isLoading: returning }] = useReturnThisMachineSeatMutation();
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState<number | string>(3);
  const [failure, setFailure] = useState<string | null>(null);

  if (!seat || seat.status === 'not_floating') return null;
  const maxDays = seat.max_borrow_days ?? 0;
  const heldUntil = seat.held_until ? formatDateTime(seat.held_until) : null;

  const confirm = async () => {
    setFailure(null);
    const result = await borrow({ licenseId, days: Number(days) });
    if (!result.data || result.data.status !== 'held' || !result.data.borrowed_until) {
      setFailure(
        result.data
          ? knownText(result.data.message)
          : failureMessage(result.error, t`Could not borrow the seat`),
      );
      return;
    }
    showToast({ title: t`Seat borrowed`, message: knownText(result.data.message) });
    setOpen(false);
  };

  const returnSeat = async () => {
    const result = await giveBack({ licenseId });
    showToast(
      result.data
        ? { title: t`Borrowed seat returned`, message: knownText(result.data.message) }
        : { title: t`Could not return the seat`, message: failureMessage(result.error, t`Try again.`) },
    );
  };

  return (
    <Stack gap="xs" data-testid="this-machine-floating-seat">
      <Text size="sm">
        <Text span fw={600}>
          <Trans>This machine:</Trans>{' '}
        </Text>
        {/* Main's English ("This machine holds one of 2 floating seats"), in the language shown. */}
        {knownText(seat.message)}
      </Text>
      <Group gap="xs">
        {seat.status === 'held' && seat.borrowed_until ? (
          <Button variant="default" size="xs" onClick={() => void returnSeat()} loading={returning}>
            <Trans>Return borrowed seat</Trans>
          </Button>
        ) : seat.status === 'held' && maxDays > 0 ? (
          <Button variant="default" size="xs" onClick={() => setOpen(true)}>
            <Trans>Borrow for offline use…</Trans>
          </Button>
        ) : null}
      </Group>

      <Modal
        opened={open}
        onClose={() => (borrowing ? undefined : setOpen(false))}
        title={t`Borrow this seat for offline use`}
        closeButtonProps={{ 'aria-label': t`Close` }}
        centered
      >
        <Stack gap="md">
          <Text size="sm">
            {heldUntil
              ? t`The seat stays this machine’s for the days you choose, without the network and after the app closes; it counts as in use until you return it or the days end (held now until ${heldUntil}).`
              : t`The seat stays this machine’s for the days you choose, without the network and after the app closes; it counts as in use until you return it or the days end.`}
          </Text>
          <NumberInput
            label={t`Days`}
            description={plural(maxDays, { one: 'At most # day.', other: 'At most # days.' })}
            min={1}
            max={maxDays}
            allowDecimal={false}
            allowNegative={false}
            value={days}
            onChange={setDays}
            data-autofocus
          />
          {failure ? (
            <Notice tone="danger" title={t`Could not borrow the seat`} urgent>
              {failure}
            </Notice>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)} disabled={borrowing}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              onClick={() => void confirm()}
              loading={borrowing}
              disabled={!(Number(days) >= 1 && Number(days) <= maxDays)}
            >
              <Trans>Borrow</Trans>
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
