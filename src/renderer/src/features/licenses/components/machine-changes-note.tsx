import { Text } from '@mantine/core';
import type { MachineChanges } from '../../../../../shared/api/licenses';
import { formatDate } from '../license-format';

const machines = (count: number) => `${count} machine${count === 1 ? '' : 's'}`;

/**
 * What the plan's cap on deactivations leaves: how many more machines may be freed in the rolling
 * window, or, when none, the date the next deactivation becomes possible.
 */
export function MachineChangesNote({ changes }: { changes: MachineChanges | undefined }) {
  if (!changes) return null;
  const left = Math.max(changes.limit - changes.used, 0);
  if (left > 0)
    return (
      <Text size="sm" c="dimmed" data-testid="machine-changes">
        You may deactivate {left} more {left === 1 ? 'machine' : 'machines'} in the next {changes.window_days}{' '}
        days (your plan allows {changes.limit} every {changes.window_days} days).
      </Text>
    );
  return (
    <Text size="sm" fw={600} data-testid="machine-changes" role="status">
      {changes.next_possible_at
        ? `You have deactivated ${machines(changes.used)} in the last ${changes.window_days} days, the most your plan allows. The next deactivation is possible on ${formatDate(changes.next_possible_at)}.`
        : 'Your plan does not allow deactivating machines. Contact support to free one.'}
    </Text>
  );
}
