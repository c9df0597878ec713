import { plural, t } from '@lingui/core/macro';
import { Text } from '@mantine/core';
import type { MachineChanges } from '../../../../../shared/api/licenses';
import { formatDate } from '../license-format';

/**
 * What the plan's cap on deactivations leaves: how many more machines may be freed in the rolling
 * window, or, when none, the date the next deactivation becomes possible.
 */
export function MachineChangesNote({ changes }: { changes: MachineChanges | undefined }) {
  if (!changes) return null;
  const left = Math.max(changes.limit - changes.used, 0);
  const days = changes.window_days;
  const limit = changes.limit;
  const used = changes.used;
  if (left > 0)
    return (
      <Text size="sm" c="dimmed" data-testid="machine-changes">
        {t`You may deactivate ${plural(left, { one: '# more machine', other: '# more machines' })} in the next ${days} days (your plan allows ${limit} every ${days} days).`}
      </Text>
    );
  const next = changes.next_possible_at ? formatDate(changes.next_possible_at) : null;
  return (
    <Text size="sm" fw={600} data-testid="machine-changes" role="status">
      {next
        ? t`You have deactivated ${plural(used, { one: '# machine', other: '# machines' })} in the last ${days} days, the most your plan allows. The next deactivation is possible on ${next}.`
        : t`Your plan does not allow deactivating machines. Contact support to free one.`}
    </Text>
  );
}
