import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { seatsText } from '../license-format';

/** Orange text that keeps 4.5:1 contrast in both schemes. */
export const WARNING_TEXT = 'light-dark(#9c3508, var(--mantine-color-orange-3))';

/** Seats in use of the seats allowed, in words and as a bar that turns orange when full. */
export function SeatMeter({
  used,
  allowed,
  size = 'sm',
}: {
  used: number;
  allowed: number;
  size?: 'sm' | 'md';
}) {
  const { t } = useLingui();
  const percent = allowed > 0 ? Math.min(100, Math.round((used / allowed) * 100)) : 100;
  const full = used >= allowed;
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size={size} fw={500}>
          {seatsText(used, allowed)}
        </Text>
        {full ? (
          <Text size="xs" fw={600} c={WARNING_TEXT}>
            <Trans>All seats used</Trans>
          </Text>
        ) : null}
      </Group>
      <Progress
        value={percent}
        color={full ? 'orange' : 'teal'}
        size={size === 'md' ? 'lg' : 'md'}
        aria-label={t`Seats in use: ${used} of ${allowed}`}
      />
    </Stack>
  );
}
