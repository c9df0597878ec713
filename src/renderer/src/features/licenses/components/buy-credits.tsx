import { Button, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { PlusIcon } from '../../../components/brand/icons';
import plate from '../../../components/layout/heading-plate.module.css';

/**
 * "Buy credits": credit packs are not on sale yet, so the button is shown disabled with why, and
 * leads nowhere. When packs exist, it opens their checkout and this note goes.
 */
export function BuyCredits() {
  const noteId = useId();
  return (
    // On the plate the page heading has: the dot grid would show between the small letters.
    <Stack gap={4} align="flex-start" maw={280} className={plate.plate}>
      <Button disabled leftSection={<PlusIcon size={18} />} aria-describedby={noteId}>
        Buy credits
      </Button>
      <Text id={noteId} size="xs" c="dimmed">
        Credit packs are not on sale yet. Your allowance resets each period.
      </Text>
    </Stack>
  );
}
