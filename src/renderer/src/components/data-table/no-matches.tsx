import { Trans } from '@lingui/react/macro';
import { Button, Text } from '@mantine/core';

/** The empty state of a filtered list: what happened, what to try, and the way back to all. */
export function NoMatches({ noun, hint, onClear }: { noun: string; hint: string; onClear: () => void }) {
  return (
    <>
      <Text fw={600}>
        <Trans>No {noun} match these filters</Trans>
      </Text>
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
      <Button variant="light" onClick={onClear}>
        <Trans>Clear filters</Trans>
      </Button>
    </>
  );
}
